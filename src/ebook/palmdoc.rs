//! PalmDOC compression (the LZ77 variant of MOBI text records), with an
//! optimal parse: the shortest encoding of each record, found by dynamic
//! programming over every literal, raw run, space pair and copy.
//!
//! Invariant: `decompress(&compress(x)) == x` for every input of at most
//! 4,096 bytes (one record); copies never overlap their source, as in
//! calibre's encoder, so every reader decodes them the same way.

/// The longest distance a copy can reach back.
const WINDOW: usize = 2047;
const MIN_COPY: usize = 3;
const MAX_COPY: usize = 10;

/// Whether `b` can stand as a one-byte literal.
fn plain(b: u8) -> bool {
    b == 0 || (0x09..=0x7f).contains(&b)
}

#[derive(Clone, Copy)]
enum Step {
    Literal,
    SpacePair,
    Raw(u8),
    Copy { distance: u16, length: u8 },
}

impl Step {
    fn advance(self) -> usize {
        match self {
            Step::Literal => 1,
            Step::SpacePair => 2,
            Step::Raw(n) => usize::from(n),
            Step::Copy { length, .. } => usize::from(length),
        }
    }
}

/// For each position, the longest earlier match (distance, length) within
/// the window, not overlapping the position; found with hash chains.
fn longest_matches(data: &[u8]) -> Vec<(u16, u8)> {
    let n = data.len();
    let mut best = vec![(0u16, 0u8); n];
    let key = |i: usize| {
        (usize::from(data[i]) << 10 ^ usize::from(data[i + 1]) << 5 ^ usize::from(data[i + 2]))
            & 0x7fff
    };
    let mut head = vec![usize::MAX; 0x8000];
    let mut prev = vec![usize::MAX; n];
    for i in 0..n.saturating_sub(MIN_COPY - 1) {
        let k = key(i);
        let mut cand = head[k];
        let limit = (n - i).min(MAX_COPY);
        while cand != usize::MAX && i - cand <= WINDOW {
            // No overlap: the copy's source ends before it starts.
            let max_len = limit.min(i - cand);
            let mut len = 0;
            while len < max_len && data[cand + len] == data[i + len] {
                len += 1;
            }
            if len >= MIN_COPY && len > usize::from(best[i].1) {
                best[i] = ((i - cand) as u16, len as u8);
                if len == limit {
                    break;
                }
            }
            cand = prev[cand];
        }
        prev[i] = head[k];
        head[k] = i;
    }
    best
}

/// Compresses one record (at most 4,096 bytes) to its shortest PalmDOC
/// encoding.
pub fn compress(data: &[u8]) -> Vec<u8> {
    let n = data.len();
    let matches = longest_matches(data);
    // cost[i]: bytes to encode data[i..]; choice[i]: the first step.
    let mut cost = vec![0u32; n + 1];
    let mut choice = vec![Step::Literal; n];
    for i in (0..n).rev() {
        let mut best = (u32::MAX, Step::Literal);
        let mut consider = |c: u32, s: Step| {
            if c < best.0 {
                best = (c, s);
            }
        };
        if plain(data[i]) {
            consider(1 + cost[i + 1], Step::Literal);
        }
        if data[i] == b' ' && i + 1 < n && (0x40..=0x7f).contains(&data[i + 1]) {
            consider(1 + cost[i + 2], Step::SpacePair);
        }
        for k in 1..=8.min(n - i) {
            consider(1 + k as u32 + cost[i + k], Step::Raw(k as u8));
        }
        let (distance, longest) = matches[i];
        for length in MIN_COPY..=usize::from(longest) {
            consider(
                2 + cost[i + length],
                Step::Copy {
                    distance,
                    length: length as u8,
                },
            );
        }
        cost[i] = best.0;
        choice[i] = best.1;
    }
    let mut out = Vec::with_capacity(cost[0] as usize);
    let mut i = 0;
    while i < n {
        let step = choice[i];
        match step {
            Step::Literal => out.push(data[i]),
            Step::SpacePair => out.push(data[i + 1] ^ 0x80),
            Step::Raw(k) => {
                out.push(k);
                out.extend_from_slice(&data[i..i + usize::from(k)]);
            }
            Step::Copy { distance, length } => {
                let pair = 0x8000 | (distance << 3) | u16::from(length - 3);
                out.extend_from_slice(&pair.to_be_bytes());
            }
        }
        i += step.advance();
    }
    out
}

/// Why compressed text could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub usize);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad PalmDOC data at byte {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

/// Decodes PalmDOC-compressed bytes.
pub fn decompress(data: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(data.len() * 2);
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        i += 1;
        match b {
            0x01..=0x08 => {
                let k = usize::from(b);
                let raw = data.get(i..i + k).ok_or(DecodeError(i))?;
                out.extend_from_slice(raw);
                i += k;
            }
            0x80..=0xbf => {
                let lo = *data.get(i).ok_or(DecodeError(i))?;
                i += 1;
                let pair = u16::from_be_bytes([b, lo]) & 0x3fff;
                let distance = usize::from(pair >> 3);
                let length = usize::from(pair & 7) + 3;
                if distance == 0 || distance > out.len() {
                    return Err(DecodeError(i));
                }
                let start = out.len() - distance;
                for j in 0..length {
                    out.push(out[start + j]);
                }
            }
            0xc0..=0xff => {
                out.push(b' ');
                out.push(b ^ 0x80);
            }
            _ => out.push(b),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_encodings() {
        assert_eq!(compress(b"a b"), b"a\xe2".to_vec());
        assert_eq!(compress(b"\xc3\xa9"), b"\x02\xc3\xa9".to_vec());
        // "abcabc": three literals, then a copy of 3 at distance 3.
        assert_eq!(compress(b"abcabc"), vec![b'a', b'b', b'c', 0x80, 0x18]);
        assert_eq!(decompress(&[0x80, 0x18]), Err(DecodeError(2)));
    }

    #[test]
    fn html_shrinks() {
        let text = "<a filepos=0000001234><img recindex=\"00001\"></a>".repeat(100);
        let c = compress(&text.as_bytes()[..4096]);
        assert!(c.len() < 1200, "{}", c.len());
        assert_eq!(decompress(&c).unwrap(), &text.as_bytes()[..4096]);
    }

    fn with_repeats() -> impl Strategy<Value = Vec<u8>> {
        // Pieces drawn from a small alphabet and repeated, so copies of
        // every length and distance occur, plus arbitrary bytes.
        prop::collection::vec(
            (prop::collection::vec(any::<u8>(), 1..24), 1usize..40),
            0..40,
        )
        .prop_map(|pieces| {
            let mut v = Vec::new();
            for (p, times) in pieces {
                for _ in 0..times {
                    v.extend_from_slice(&p);
                }
            }
            v.truncate(4096);
            v
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn round_trips(data in prop::collection::vec(any::<u8>(), 0..4096)) {
            prop_assert_eq!(decompress(&compress(&data)).unwrap(), data);
        }

        #[test]
        fn round_trips_with_long_repeats(data in with_repeats()) {
            let c = compress(&data);
            prop_assert_eq!(decompress(&c).unwrap(), data);
        }

        #[test]
        fn round_trips_text(s in "[ a-e<>=\"/0-9]{0,4096}") {
            let data = s.into_bytes();
            prop_assert_eq!(decompress(&compress(&data)).unwrap(), data);
        }
    }
}
