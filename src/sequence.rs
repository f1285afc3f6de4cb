//! Which `sequence_number`s a stream has delivered, for telling a replay (after a reconnect)
//! from a new event without letting one outlier hide the rest of the stream.
//!
//! A number is a replay when it was seen before, and only then: after `0, 1, 2, 10^15`, the
//! events `3, 4, …` are new, not replays of something below the outlier. The numbers seen are
//! kept as at most [`MAX_RANGES`] disjoint ranges, so memory stays constant whatever the
//! input; past that many gaps, the two ranges closest to each other are joined (the numbers
//! between them count as seen: lost events that can no longer arrive late).

use std::collections::BTreeMap;

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

/// The set of sequence numbers seen, as disjoint inclusive ranges keyed by their start.
#[derive(Debug, Default)]
pub(crate) struct SeenNumbers {
    ranges: BTreeMap<i64, i64>,
}

impl SeenNumbers {
    /// Records `n`, telling whether it is new.
    pub(crate) fn accept(&mut self, n: i64) -> Seen {
        let highest = self.ranges.last_key_value().map(|(_, &end)| end);
        // The range starting at or below `n`.
        let below = self.ranges.range(..=n).next_back().map(|(&s, &e)| (s, e));
        if below.is_some_and(|(_, end)| n <= end) {
            return Seen::Replay;
        }
        let verdict = match highest {
            None => Seen::New,
            Some(h) if n == h.saturating_add(1) => Seen::New,
            Some(h) if n > h => Seen::Gap(h),
            Some(_) => Seen::Late,
        };
        // Insert [n, n], joined with the neighbours it touches.
        let mut start = n;
        let mut end = n;
        if let Some((s, e)) = below {
            if e.checked_add(1) == Some(n) {
                self.ranges.remove(&s);
                start = s;
            }
        }
        if let Some(next_end) = n.checked_add(1).and_then(|m| self.ranges.remove(&m)) {
            end = next_end;
        }
        self.ranges.insert(start, end);
        if self.ranges.len() > MAX_RANGES {
            self.join_closest();
        }
        verdict
    }

    /// Joins the two adjacent ranges with the smallest gap between them.
    fn join_closest(&mut self) {
        let mut best: Option<(u64, i64, i64)> = None; // (gap, start of the left, start of the right)
        let mut previous: Option<(i64, i64)> = None;
        for (&s, &e) in &self.ranges {
            if let Some((ps, pe)) = previous {
                let gap = s.abs_diff(pe);
                if best.is_none_or(|(g, _, _)| gap < g) {
                    best = Some((gap, ps, s));
                }
            }
            previous = Some((s, e));
        }
        if let Some((_, left, right)) = best {
            if let Some(end) = self.ranges.remove(&right) {
                self.ranges.insert(left, end);
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
