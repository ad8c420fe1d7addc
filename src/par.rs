//! The one threading helper: a parallel map over as many threads as the
//! machine has cores, and a join of two jobs. Every edition, format and
//! the writer use it, so the build scales with the machine and nowhere
//! hard-codes a thread count.
//!
//! Invariant: the output is in input order, whatever the threads do, so
//! the build's bytes never depend on the number of cores.

/// How many threads share the work: the cores this process may use.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `items.iter().map(f).collect()`, on [`threads`] threads, in order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads();
    if items.len() < 64 || threads == 1 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
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

/// Runs `a` and `b` at once (on another thread when there is a core for
/// it) and returns both results.
pub fn join<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    if threads() == 1 {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let a = scope.spawn(a);
        let b = b();
        (a.join().expect("worker panicked"), b)
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

    #[test]
    fn join_returns_both_in_place() {
        assert_eq!(super::join(|| 1, || "two"), (1, "two"));
    }
}
