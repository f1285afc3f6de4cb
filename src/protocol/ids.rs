//! Random IDs in the reference's format (`msg_` / `response_` + a hyphenated UUID v4), and the
//! clock abstraction used for timestamps (no `std::time` on `wasm32-unknown-unknown`).

use crate::{Error, ErrorCode, Result};

/// `prefix` followed by a random hyphenated UUID v4, e.g. `msg_0b5c…-…`.
pub fn new_id(prefix: &str) -> Result<String> {
    let mut b = random16()?;
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let mut s = String::with_capacity(prefix.len() + 36);
    s.push_str(prefix);
    for (i, byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        for nibble in [byte >> 4, byte & 0x0f] {
            s.push(char::from_digit(u32::from(nibble), 16).unwrap_or('0'));
        }
    }
    Ok(s)
}

/// A source of the current time in whole seconds since the Unix epoch (the reference's
/// `int(datetime.now().timestamp())`).
pub trait Clock {
    /// Seconds since the Unix epoch.
    fn now_secs(&self) -> i64;
}

/// The system clock (not available on `wasm32-unknown-unknown`, where the JS face supplies
/// `Date.now()` through its own [`Clock`]).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now_secs(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
            .unwrap_or(0)
    }
}

/// A clock that always returns the same time (tests, reproducible output).
#[derive(Debug, Clone, Copy, Default)]
pub struct FixedClock(pub i64);

impl Clock for FixedClock {
    fn now_secs(&self) -> i64 {
        self.0
    }
}

/// Bytes of the system's randomness taken at a time: one call to the source (in wasm, the
/// host's `crypto.getRandomValues`, a few microseconds each) serves sixteen ids. Only where
/// ids are made per run (the builder: `full`); the readers' builds stay small.
#[cfg(feature = "full")]
const POOL_BYTES: usize = 256;

#[cfg(feature = "full")]
std::thread_local! {
    /// Random bytes not yet used, and where the unused ones start.
    static POOL: std::cell::RefCell<([u8; POOL_BYTES], usize)> =
        const { std::cell::RefCell::new(([0; POOL_BYTES], POOL_BYTES)) };
}

/// Sixteen bytes from the system's randomness, each used once (taken from the pool, which is
/// refilled when empty; used bytes are zeroed).
#[cfg(feature = "full")]
fn random16() -> Result<[u8; 16]> {
    POOL.with(|pool| {
        let mut pool = pool.borrow_mut();
        let (bytes, at) = &mut *pool;
        if *at + 16 > POOL_BYTES {
            getrandom::fill(bytes).map_err(|e| {
                Error::new(
                    ErrorCode::InvalidOption,
                    format!("no randomness source for a new id: {e}"),
                )
            })?;
            *at = 0;
        }
        let mut out = [0u8; 16];
        if let Some(taken) = bytes.get_mut(*at..*at + 16) {
            out.copy_from_slice(taken);
            taken.fill(0);
        }
        *at += 16;
        Ok(out)
    })
}

/// Sixteen bytes from the system's randomness.
#[cfg(not(feature = "full"))]
fn random16() -> Result<[u8; 16]> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| {
        Error::new(
            ErrorCode::InvalidOption,
            format!("no randomness source for a new id: {e}"),
        )
    })?;
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_shape() {
        let id = new_id("msg_").unwrap();
        assert_eq!(id.len(), 4 + 36);
        let u = &id[4..];
        let dashes: Vec<usize> = u.match_indices('-').map(|(i, _)| i).collect();
        assert_eq!(dashes, vec![8, 13, 18, 23]);
        assert_eq!(&u[14..15], "4");
        assert_ne!(new_id("").unwrap(), new_id("").unwrap());
    }

    #[test]
    fn ids_from_the_pool_never_repeat_across_refills() {
        let ids: std::collections::HashSet<String> =
            (0..1000).map(|_| new_id("").unwrap()).collect();
        assert_eq!(ids.len(), 1000);
    }
}
