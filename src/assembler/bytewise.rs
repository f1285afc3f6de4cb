//! Byte comparisons eight bytes at a time, for the hot path. In wasm, the `memcmp` that slice
//! equality and `starts_with` call compares one byte at a time; a text delta's learned prefix
//! (~80 bytes) and message id (~40 bytes) are compared on every event.

/// Whether `bytes` starts with `prefix`.
pub(crate) fn starts_with(bytes: &[u8], prefix: &[u8]) -> bool {
    let Some(mut head) = bytes.get(..prefix.len()) else {
        return false;
    };
    let mut prefix = prefix;
    while let (Some((a, rest_a)), Some((b, rest_b))) = (
        head.split_first_chunk::<8>(),
        prefix.split_first_chunk::<8>(),
    ) {
        if u64::from_ne_bytes(*a) != u64::from_ne_bytes(*b) {
            return false;
        }
        (head, prefix) = (rest_a, rest_b);
    }
    head == prefix
}

/// Whether `a` and `b` are the same string.
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && starts_with(a.as_bytes(), b.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn agree_with_std(a in proptest::collection::vec(0u8..4, 0..40), b in proptest::collection::vec(0u8..4, 0..40)) {
            proptest::prop_assert_eq!(starts_with(&a, &b), a.starts_with(&b));
            let (a, b) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
            proptest::prop_assert_eq!(same(&a, &b), a == b);
        }
    }

    #[test]
    fn a_difference_in_any_position_counts() {
        let base: Vec<u8> = (0..37).collect();
        for at in 0..base.len() {
            let mut other = base.clone();
            other[at] ^= 1;
            assert!(!starts_with(&base, &other), "{at}");
            assert!(starts_with(&base, &base[..=at]));
        }
    }
}
