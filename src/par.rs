//! A parallel map over two threads: the machine this is built for has two
//! cores, and rendering thousands of small pages splits evenly.
//!
//! Invariant: the output is in input order, whatever the threads do.

/// How many threads share the work.
const THREADS: usize = 2;

/// `items.iter().map(f).collect()`, on [`THREADS`] threads.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() < 64 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(THREADS);
    let f = &f;
    std::thread::scope(|scope| {
        let parts: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
            .collect();
        parts
            .into_iter()
            .flat_map(|p| p.join().expect("worker panicked"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_order() {
        let v: Vec<u32> = (0..1000).collect();
        assert_eq!(
            super::map(&v, |x| x * 2),
            v.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
    }
}
