//! Bit tricks on one 64-bit word that more than one game's bit sets need.

/// The position of the set bit of rank `k` (from 0, lowest first) in `word`, which has more than `k`
/// set bits: whole bytes are skipped first, then bits one at a time within the byte.
#[inline(always)]
pub(crate) fn select(mut word: u64, mut k: u32) -> u32 {
    let mut base = 0;
    loop {
        let n = (word & 0xff).count_ones();
        if k < n {
            break;
        }
        k -= n;
        word >>= 8;
        base += 8;
    }
    for _ in 0..k {
        word &= word - 1;
    }
    base + word.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_each_set_bit() {
        let word = 0x8000_0100_f00f_0001u64;
        let bits: Vec<u32> = (0..64).filter(|b| word >> b & 1 == 1).collect();
        for (k, &b) in bits.iter().enumerate() {
            assert_eq!(select(word, k as u32), b);
        }
    }
}
