//! Spelling suggestions: the "did you mean" of level errors, by edit distance.

/// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
pub(crate) fn suggest<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let len = word.chars().count();
    let limit = (len / 3).clamp(1, 3);
    candidates
        .into_iter()
        // Lengths further apart than the limit cannot be close; skipping them keeps a
        // megabyte-long word from costing a megabyte-sized table.
        .filter(|c| c.chars().count().abs_diff(len) <= limit)
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Levenshtein distance counting a swap of two neighbours as one edit.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the dynamic-programming table: two back, one back, current.
    let mut two_back = vec![0; b.len() + 1];
    let mut one_back: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (one_back[j] + 1)
                .min(current[j - 1] + 1)
                .min(one_back[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(two_back[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut two_back, &mut one_back);
        std::mem::swap(&mut one_back, &mut current);
    }
    one_back[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_typos() {
        assert_eq!(edit_distance("lgend", "legend"), 1);
        assert_eq!(edit_distance("helath", "health"), 1);
        assert_eq!(edit_distance("crate", "crate"), 0);
        assert_eq!(edit_distance("", "map"), 3);
    }

    #[test]
    fn suggestions_ignore_distant_words() {
        assert_eq!(suggest("lgend", ["name", "map", "legend"]), Some("legend"));
        assert_eq!(suggest("zzzzzz", ["name", "map", "legend"]), None);
    }
}
