//! Near misses: which known word a mistyped one was meant to be.

/// The candidate `word` is (ignoring case), or is at most one edit (two for long words) away from.
/// Ties go to the candidate listed first.
pub(crate) fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if let Some(c) = candidates.iter().find(|c| **c == word) {
        return Some(c);
    }
    let len = word.chars().count();
    if len < 3 {
        return None;
    }
    // The distance is at least the difference in length: most words are ruled out without it.
    candidates
        .iter()
        .copied()
        .filter_map(|c| {
            let limit = if c.len() >= 6 { 2 } else { 1 };
            if len.abs_diff(c.chars().count()) > limit {
                return None;
            }
            let d = edit_distance(word, c);
            (d <= limit).then_some((d, c))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Damerau-Levenshtein distance (optimal string alignment), on chars; short words only (the first 64
/// chars of each count).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    const MAX: usize = 64;
    // Every mail line's first words go through here, so it works in three rows on the stack.
    let mut bc = ['\0'; MAX];
    let mut bn = 0;
    for (slot, c) in bc.iter_mut().zip(b.chars()) {
        *slot = c;
        bn += 1;
    }
    let b = &bc[..bn];
    let mut two_up = [0usize; MAX + 1];
    let mut up: [usize; MAX + 1] = std::array::from_fn(|j| j);
    let mut row = [0usize; MAX + 1];
    let mut before = '\0';
    for (i, ca) in a.chars().take(MAX).enumerate() {
        row[0] = i + 1;
        for j in 1..=b.len() {
            let cost = usize::from(ca != b[j - 1]);
            let mut v = (up[j] + 1).min(row[j - 1] + 1).min(up[j - 1] + cost);
            if i > 0 && j > 1 && ca == b[j - 2] && before == b[j - 1] {
                v = v.min(two_up[j - 2] + 1);
            }
            row[j] = v;
        }
        two_up = up;
        up = row;
        before = ca;
    }
    up[b.len()]
}
