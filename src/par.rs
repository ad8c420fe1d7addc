//! The one threading helper: a parallel map over as many threads as the
//! machine has cores. The editions, the pages, the books and the EPUB's
//! files use it, so the build scales with the machine and nowhere
//! hard-codes a thread count.
//!
//! Invariant: the output is in input order, whatever the threads do, so
//! the build's bytes never depend on the number of cores.

/// How many threads share the work: the cores this process may use.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `items.iter().map(f).collect()`, on [`threads`] threads, in order.
/// Threads take the next batch as they finish one, so a list of jobs of
/// unequal size (books, files to deflate) keeps every core busy; a batch
/// is about an eighth of a thread's share, and one item for short lists.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads().min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let batch = (items.len() / (threads * 8)).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(batch, std::sync::atomic::Ordering::Relaxed);
            if start >= items.len() {
                return done;
            }
            let end = (start + batch).min(items.len());
            done.push((start, items[start..end].iter().map(&f).collect::<Vec<R>>()));
        }
    };
    let mut parts: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut parts = work();
        for t in others {
            parts.extend(t.join().expect("worker panicked"));
        }
        parts
    });
    parts.sort_unstable_by_key(|p| p.0);
    parts.into_iter().flat_map(|p| p.1).collect()
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
    fn keeps_order_of_unequal_jobs() {
        let v: Vec<u64> = (0..40).rev().collect();
        let out = super::map(&v, |&x| {
            std::thread::sleep(std::time::Duration::from_micros(x * 50));
            x + 1
        });
        assert_eq!(out, v.iter().map(|x| x + 1).collect::<Vec<_>>());
        assert!(super::map(&[] as &[u8], |x| *x).is_empty());
    }
}
