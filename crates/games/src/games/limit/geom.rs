//! Hex geometry and the stable position numbers of rules section 2.
//!
//! Cells use axial coordinates `(q, r)` with `r` growing downwards (pointy-top hexagons in rows).
//! Position 1 is `(0, 0)`; ring `k` starts `k` steps east and goes round clockwise as drawn.

/// The six neighbour offsets in clockwise order as drawn (y down): E, SE, SW, W, NW, NE.
/// Consecutive entries are themselves adjacent cells, which the cut test in [`super::board`] relies on.
pub const DIRS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// The ring-walk directions of section 2: from `(k, 0)`, `k` steps each of SW, W, NW, NE, E, SE.
const WALK: [(i32, i32); 6] = [(-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0), (0, 1)];

/// The hex distance of `(q, r)` from position 1.
pub fn ring_of(q: i32, r: i32) -> i32 {
    (q.abs() + r.abs() + (q + r).abs()) / 2
}

/// The axial coordinates of position `n` (`n >= 1`).
pub fn axial(n: u32) -> (i32, i32) {
    assert!(n >= 1, "position numbers start at 1");
    if n == 1 {
        return (0, 0);
    }
    // Ring k holds 3k(k-1)+2 ..= 3k(k+1)+1.
    let mut k: i64 = 1;
    while 3 * k * (k + 1) + 1 < n as i64 {
        k += 1;
    }
    let idx = n as i64 - (3 * k * (k - 1) + 2);
    let side = (idx / k) as usize;
    let step = (idx % k) as i32;
    let k = k as i32;
    // The corner where each side of the walk starts.
    let corners = [(k, 0), (0, k), (-k, k), (-k, 0), (0, -k), (k, -k)];
    let (cq, cr) = corners[side];
    let (dq, dr) = WALK[side];
    (cq + dq * step, cr + dr * step)
}

/// The position number of the cell `(q, r)`.
pub fn number(q: i32, r: i32) -> u32 {
    let k = ring_of(q, r);
    if k == 0 {
        return 1;
    }
    let idx = if q + r == k && r >= 0 && r < k {
        r
    } else if r == k && q <= 0 && q > -k {
        k - q
    } else if q == -k && r > 0 && r <= k {
        2 * k + (k - r)
    } else if q + r == -k && r <= 0 && r > -k {
        3 * k - r
    } else if r == -k && q >= 0 && q < k {
        4 * k + q
    } else {
        debug_assert!(q == k && r >= -k && r < 0);
        5 * k + (r + k)
    };
    let (k, idx) = (k as i64, idx as i64);
    (3 * k * (k - 1) + 2 + idx) as u32
}

/// The numbers of the six neighbours of position `n`, in [`DIRS`] order.
pub fn neighbours(n: u32) -> [u32; 6] {
    let (q, r) = axial(n);
    DIRS.map(|(dq, dr)| number(q + dq, r + dr))
}

/// True when positions `a` and `b` share an edge.
pub fn adjacent(a: u32, b: u32) -> bool {
    let (aq, ar) = axial(a);
    let (bq, br) = axial(b);
    ring_of(aq - bq, ar - br) == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s2_position_one_is_the_origin() {
        assert_eq!(axial(1), (0, 0));
        assert_eq!(number(0, 0), 1);
    }

    #[test]
    fn s2_ring_one_starts_east_and_goes_clockwise() {
        assert_eq!(axial(2), (1, 0), "2 is east of 1");
        assert_eq!(axial(3), (0, 1), "3 is south-east of 1");
        assert_eq!(axial(4), (-1, 1), "4 is south-west of 1");
        assert_eq!(axial(5), (-1, 0), "5 is west of 1");
        assert_eq!(axial(6), (0, -1), "6 is north-west of 1");
        assert_eq!(axial(7), (1, -1), "7 is north-east of 1");
    }

    #[test]
    fn s2_ring_ranges() {
        for (k, lo, hi) in [(1, 2, 7), (2, 8, 19), (3, 20, 37), (4, 38, 61)] {
            for n in lo..=hi {
                let (q, r) = axial(n);
                assert_eq!(ring_of(q, r), k, "position {n}");
            }
            assert_eq!(axial(lo), (k, 0), "ring {k} starts k steps east");
        }
        // Ring 2 walks SW first: 9 is one step SW of 8.
        assert_eq!(axial(9), (1, 1));
        assert_eq!(axial(10), (0, 2));
        assert_eq!(
            axial(19),
            (2, -1),
            "last cell of ring 2 is one step before its start"
        );
    }

    #[test]
    fn s2_numbers_round_trip() {
        for n in 1..5000 {
            let (q, r) = axial(n);
            assert_eq!(number(q, r), n);
        }
        for q in -20..=20 {
            for r in -20..=20 {
                assert_eq!(axial(number(q, r)), (q, r));
            }
        }
    }

    #[test]
    fn s1_neighbours_are_adjacent_and_consecutive_ones_touch() {
        for n in 1..200 {
            let ns = neighbours(n);
            for i in 0..6 {
                assert!(adjacent(n, ns[i]));
                assert!(adjacent(ns[i], ns[(i + 1) % 6]));
            }
        }
        assert_eq!(neighbours(1), [2, 3, 4, 5, 6, 7]);
    }
}
