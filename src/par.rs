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
