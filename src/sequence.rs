//! Which `sequence_number`s a stream has delivered, for telling a replay (after a reconnect)
//! from a new event without letting one outlier hide the rest of the stream.
//!
//! A number is a replay when it was seen before, and only then: after `0, 1, 2, 10^15`, the
//! events `3, 4, …` are new, not replays of something below the outlier. The numbers seen are
//! kept as at most [`MAX_RANGES`] disjoint ranges, so memory stays constant whatever the
//! input; past that many gaps, the two ranges closest to each other are joined (the numbers
//! between them count as seen: lost events that can no longer arrive late).

/// The most disjoint ranges of seen numbers kept.
pub(crate) const MAX_RANGES: usize = 64;

/// What [`SeenNumbers::accept`] decided about a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    /// Not seen before, and the next number after the highest so far (or the first).
    New,
    /// Not seen before, but past the next expected number: events between may be lost. Holds
    /// the highest number seen before it.
    Gap(i64),
    /// Not seen before, below the highest number seen (arriving late, or after an outlier).
    Late,
    /// Seen before: a replay.
    Replay,
}

/// The set of sequence numbers seen, as disjoint inclusive ranges `(start, end)`, sorted and
/// not touching (a short sorted list: at most [`MAX_RANGES`]).
#[derive(Debug, Default)]
pub(crate) struct SeenNumbers {
    ranges: Vec<(i64, i64)>,
}

impl SeenNumbers {
    /// Records `n`, telling whether it is new.
    pub(crate) fn accept(&mut self, n: i64) -> Seen {
        // The first range starting above `n`; the one before it may hold `n`.
        let after = self.ranges.partition_point(|&(start, _)| start <= n);
        let below = after
            .checked_sub(1)
            .and_then(|i| self.ranges.get(i).copied());
        if below.is_some_and(|(_, end)| n <= end) {
            return Seen::Replay;
        }
        let verdict = match self.ranges.last() {
            None => Seen::New,
            Some(&(_, h)) if n == h.saturating_add(1) => Seen::New,
            Some(&(_, h)) if n > h => Seen::Gap(h),
            Some(_) => Seen::Late,
        };
        let joins_below = below.is_some_and(|(_, end)| end.checked_add(1) == Some(n));
        let joins_above = self
            .ranges
            .get(after)
            .is_some_and(|&(start, _)| n.checked_add(1) == Some(start));
        match (joins_below, joins_above) {
            (true, true) => {
                let end = self.ranges.get(after).map_or(n, |&(_, e)| e);
                self.ranges.remove(after);
                if let Some(range) = self.ranges.get_mut(after - 1) {
                    range.1 = end;
                }
            }
            (true, false) => {
                if let Some(range) = self.ranges.get_mut(after - 1) {
                    range.1 = n;
                }
            }
            (false, true) => {
                if let Some(range) = self.ranges.get_mut(after) {
                    range.0 = n;
                }
            }
            (false, false) => {
                self.ranges.insert(after, (n, n));
                if self.ranges.len() > MAX_RANGES {
                    self.join_closest();
                }
            }
        }
        verdict
    }

    /// Joins the two adjacent ranges with the smallest gap between them.
    fn join_closest(&mut self) {
        let closest = self
            .ranges
            .windows(2)
            .enumerate()
            .min_by_key(|(_, pair)| match pair {
                [(_, left_end), (right_start, _)] => right_start.abs_diff(*left_end),
                _ => u64::MAX,
            })
            .map(|(i, _)| i);
        if let Some(i) = closest {
            if let Some(&(_, end)) = self.ranges.get(i + 1) {
                self.ranges.remove(i + 1);
                if let Some(range) = self.ranges.get_mut(i) {
                    range.1 = end;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_are_numbers_seen_before() {
        let mut seen = SeenNumbers::default();
        assert_eq!(seen.accept(5), Seen::New);
        assert_eq!(seen.accept(6), Seen::New);
        assert_eq!(seen.accept(6), Seen::Replay);
        assert_eq!(seen.accept(5), Seen::Replay);
        assert_eq!(seen.accept(9), Seen::Gap(6));
        assert_eq!(seen.accept(7), Seen::Late);
        assert_eq!(seen.accept(8), Seen::Late);
        assert_eq!(seen.accept(9), Seen::Replay);
        assert_eq!(seen.accept(10), Seen::New);
        assert_eq!(seen.ranges.len(), 1);
        assert_eq!(seen.accept(4), Seen::Late);
    }

    #[test]
    fn an_outlier_does_not_hide_what_follows() {
        let mut seen = SeenNumbers::default();
        for n in 0..3 {
            assert_eq!(seen.accept(n), Seen::New);
        }
        assert_eq!(seen.accept(1_000_000_000_000_000), Seen::Gap(2));
        for n in 3..100 {
            assert_eq!(seen.accept(n), Seen::Late, "{n}");
        }
        assert_eq!(seen.accept(50), Seen::Replay);
        assert_eq!(seen.accept(1_000_000_000_000_000), Seen::Replay);
        // An outlier first does not hide the stream either.
        let mut seen = SeenNumbers::default();
        assert_eq!(seen.accept(i64::MAX), Seen::New);
        assert_eq!(seen.accept(0), Seen::Late);
        assert_eq!(seen.accept(1), Seen::Late);
        assert_eq!(seen.accept(0), Seen::Replay);
        assert_eq!(seen.accept(i64::MIN), Seen::Late);
        assert_eq!(seen.accept(i64::MIN), Seen::Replay);
    }

    #[test]
    fn memory_stays_bounded_and_joins_the_closest_ranges() {
        let mut seen = SeenNumbers::default();
        for i in 0..10_000 {
            seen.accept(i * 10);
            assert!(seen.ranges.len() <= MAX_RANGES);
        }
        // Everything ever accepted is still a replay.
        for i in 0..10_000 {
            assert_eq!(seen.accept(i * 10), Seen::Replay);
        }
        // Numbers far above are new.
        assert_eq!(seen.accept(1_000_000), Seen::Gap(99_990));
    }

    #[test]
    fn joins_prefer_the_smallest_gap() {
        let mut seen = SeenNumbers::default();
        for i in 0..MAX_RANGES as i64 {
            seen.accept(i * 1000);
        }
        seen.accept(1_000_000); // 65 ranges: the closest pair is joined, not the outlier
        assert_eq!(seen.ranges.len(), MAX_RANGES);
        assert_eq!(seen.accept(999_999), Seen::Late);
    }
}
