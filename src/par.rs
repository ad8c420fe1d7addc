//! The one threading helper: a parallel map on rayon's one pool of a
//! thread a core. The editions, the pages, the books, the EPUB's files and
//! the writing of the site use it, nested freely: a map inside a map
//! shares the same threads (work stealing), so the build never runs more
//! threads than cores and nowhere hard-codes a thread count.
//!
//! Invariant: the output is in input order, whatever the threads do, so
//! the build's bytes never depend on the number of cores.

use rayon::prelude::*;

/// `items.iter().map(f).collect()`, on every core, in order. Idle threads
/// steal work, so a list of jobs of unequal size (books, files to
/// deflate) keeps every core busy.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    items.par_iter().map(f).collect()
}

/// [`map`] of a few jobs of very unequal size (the editions), heaviest
/// first by `weight`: each thread takes the heaviest job left when it is
/// free, so the largest job does not start last and leave the other
/// cores idle while one finishes it alone (a plain [`map`] splits the
/// list in halves, in its order). Jobs of equal weight go in list order.
/// The output is in input order.
pub fn map_heaviest_first<T: Sync, R: Send>(
    items: &[T],
    weight: impl Fn(&T) -> u64,
    f: impl Fn(&T) -> R + Sync + Send,
) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Mutex, PoisonError};
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(weight(&items[i])));
    let next = AtomicUsize::new(0);
    let done: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let take = || {
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let made = f(&items[i]);
            *done[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(made);
        }
    };
    rayon::scope(|s| {
        for _ in 1..rayon::current_num_threads().min(items.len()) {
            s.spawn(|_| take());
        }
        take();
    });
    done.into_iter()
        .map(|m| {
            let made = m.into_inner().unwrap_or_else(PoisonError::into_inner);
            made.expect("every job ran")
        })
        .collect()
}

/// Sorts `items` on every core. Equal items may change places, so only
/// for items that are all different (or where that cannot be seen).
pub fn sort_unstable<T: Ord + Send>(items: &mut [T]) {
    items.par_sort_unstable();
}

/// Runs `a` and `b` at once, on the same threads as [`map`].
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    rayon::join(a, b)
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

    /// Jobs start heaviest first, equal weights in list order (on one
    /// thread, the exact order), and the output is in input order
    /// whatever the weights and threads.
    #[test]
    fn heaviest_first_starts_the_heaviest_and_keeps_order() {
        use std::sync::Mutex;
        let v: Vec<u64> = (0..24).collect();
        let weight = |x: &u64| (x * 7) % 12;
        let started = Mutex::new(Vec::new());
        let run = || {
            super::map_heaviest_first(&v, weight, |&x| {
                started.lock().unwrap().push(x);
                super::map(&[x, x + 1], |y| y * 2)
            })
        };
        let want: Vec<Vec<u64>> = v.iter().map(|&x| vec![x * 2, x * 2 + 2]).collect();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert_eq!(one.install(run), want);
        let mut order = v.clone();
        order.sort_by_key(|x| std::cmp::Reverse(weight(x)));
        assert_eq!(*started.lock().unwrap(), order);
        assert_eq!(order[..2], [5, 17], "ties in list order");
        assert_eq!(run(), want);
        assert!(super::map_heaviest_first(&[] as &[u64], |_| 0, |&x| x).is_empty());
    }

    #[test]
    fn sorts_as_a_plain_sort_does() {
        let mut v: Vec<(String, u32)> = (0..20_000u32)
            .map(|i| (format!("{}", i.wrapping_mul(2_654_435_761) % 7919), i))
            .collect();
        let mut plain = v.clone();
        plain.sort_unstable();
        super::sort_unstable(&mut v);
        assert_eq!(v, plain);
    }

    #[test]
    fn keeps_order_of_unequal_jobs_nested() {
        let v: Vec<u64> = (0..40).rev().collect();
        let out = super::map(&v, |&x| {
            std::thread::sleep(std::time::Duration::from_micros(x * 50));
            super::map(&[x, x + 1], |y| y + 1)
        });
        assert_eq!(
            out,
            v.iter().map(|x| vec![x + 1, x + 2]).collect::<Vec<_>>()
        );
        assert!(super::map(&[] as &[u8], |x| *x).is_empty());
    }
}
