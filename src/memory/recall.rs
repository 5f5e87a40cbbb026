//! Recall's ranking, as generative agents rank: recency (exponential decay over game time since a memory was last
//! recalled), importance and relevance (cosine of the query to the memory), each brought to 0..=1 and summed with
//! weights. Each is normalised by bounds that do not depend on which memories are scored, so ranking a few hundred
//! candidates orders them as ranking every memory would: recency and importance keep their natural scales (min-max
//! over memories made a few ticks apart would blow a difference of a thousandth up to the whole scale), and relevance
//! is the similarity as a share of the best match's (the nearest memory by meaning is always a candidate). Pure: the
//! clock and the similarities are given.

use super::Memory;

/// How much each part counts. The defaults are the proportions generative agents' code uses (recency 0.5,
/// relevance 3, importance 2): what a memory is about matters most.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub recency: f32,
    pub importance: f32,
    pub relevance: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { recency: 0.5, importance: 2.0, relevance: 3.0 }
    }
}

/// Recency of a memory last recalled at `accessed`, at `now`: 1 then, halving every `half_life` ticks.
pub fn recency(accessed: u64, now: u64, half_life: u64) -> f32 {
    let age = now.saturating_sub(accessed) as f64;
    0.5_f64.powf(age / half_life.max(1) as f64) as f32
}

/// One memory's score and its parts (each 0..=1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub id: u64,
    pub total: f32,
    pub recency: f32,
    pub importance: f32,
    pub relevance: f32,
}

/// Ranks `candidates` (each with its cosine similarity to the query), best first; ties go to the newer memory.
pub fn rank(candidates: &[(&Memory, f32)], now: u64, half_life: u64, weights: Weights) -> Vec<Score> {
    let best = candidates.iter().map(|(_, s)| *s).fold(0.0_f32, f32::max);
    let mut scores: Vec<(u64, Score)> = candidates
        .iter()
        .map(|(m, similarity)| {
            let recency = recency(m.accessed, now, half_life);
            let importance = f32::from(m.importance.clamp(1, 10) - 1) / 9.0;
            let relevance = if best > 0.0 { (similarity / best).clamp(0.0, 1.0) } else { 0.0 };
            let total = weights.recency * recency + weights.importance * importance + weights.relevance * relevance;
            (m.at, Score { id: m.id, total, recency, importance, relevance })
        })
        .collect();
    scores.sort_by(|(at_a, a), (at_b, b)| b.total.total_cmp(&a.total).then(at_b.cmp(at_a)).then(b.id.cmp(&a.id)));
    scores.into_iter().map(|(_, score)| score).collect()
}

/// Relevance when no embedding model is loaded: the share of the query's words found in the memory's text.
pub fn word_overlap(query: &str, text: &str) -> f32 {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() > 2).map(str::to_lowercase).collect()
    };
    let asked = words(query);
    if asked.is_empty() {
        return 0.0;
    }
    let have = words(text);
    asked.iter().filter(|w| have.contains(w)).count() as f32 / asked.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{Memory, Subject};

    fn memory(id: u64, at: u64, importance: u8, text: &str) -> Memory {
        Memory::new(id, text.to_owned(), Subject::Told { by: "Alex".into() }, at, importance)
    }

    #[test]
    fn recency_halves_every_half_life() {
        assert_eq!(recency(1000, 1000, 500), 1.0);
        assert!((recency(1000, 1500, 500) - 0.5).abs() < 1e-6);
        assert!((recency(0, 1000, 500) - 0.25).abs() < 1e-6);
        assert_eq!(recency(2000, 1000, 500), 1.0, "a clock behind the memory counts it as new");
    }

    #[test]
    fn ranking_weighs_recency_importance_and_relevance() {
        // A fixed clock at tick 100 000, half-life one day.
        let now = 100_000;
        let old_important = memory(1, 10_000, 10, "a creeper blew up the house");
        let fresh_dull = memory(2, 99_000, 1, "walked to the river");
        let relevant = memory(3, 60_000, 4, "iron ore at 120 12 -40");
        let candidates = [(&old_important, 0.1), (&fresh_dull, 0.2), (&relevant, 0.9)];
        let ranked = rank(&candidates, now, 24_000, Weights::default());
        assert_eq!(ranked.iter().map(|s| s.id).collect::<Vec<_>>(), [3, 1, 2]);
        let part = |id: u64| *ranked.iter().find(|s| s.id == id).unwrap();
        assert_eq!(part(3).relevance, 1.0);
        assert!((part(1).relevance - 0.1 / 0.9).abs() < 1e-6);
        assert!((part(2).recency - 0.5_f32.powf(1000.0 / 24_000.0)).abs() < 1e-6);
        assert_eq!((part(1).importance, part(2).importance), (1.0, 0.0));

        // Only recency counts: newest first.
        let only_recency = Weights { recency: 1.0, importance: 0.0, relevance: 0.0 };
        let ranked = rank(&candidates, now, 24_000, only_recency);
        assert_eq!(ranked.iter().map(|s| s.id).collect::<Vec<_>>(), [2, 3, 1]);

        // Recalling refreshes: the old memory recalled just now is more recent than the newest made.
        let mut recalled = old_important.clone();
        recalled.accessed = now;
        let ranked = rank(&[(&recalled, 0.1), (&fresh_dull, 0.2)], now, 24_000, only_recency);
        assert_eq!(ranked[0].id, 1);
    }

    #[test]
    fn relevance_is_a_share_of_the_best_match_and_ties_go_to_the_newer() {
        let a = memory(1, 50, 5, "a");
        let b = memory(2, 60, 5, "b");
        let c = memory(3, 40, 5, "c");
        let ranked =
            rank(&[(&a, 0.30), (&b, 0.60), (&c, -0.2)], 60, 10, Weights { recency: 0.0, ..Weights::default() });
        assert_eq!(ranked.iter().map(|s| s.id).collect::<Vec<_>>(), [2, 1, 3]);
        assert_eq!((ranked[0].relevance, ranked[1].relevance, ranked[2].relevance), (1.0, 0.5, 0.0));
        // Scoring more memories does not change how the first two compare.
        let fewer = rank(&[(&a, 0.30), (&b, 0.60)], 60, 10, Weights { recency: 0.0, ..Weights::default() });
        assert_eq!((fewer[0].total, fewer[1].total), (ranked[0].total, ranked[1].total));
        let ranked = rank(&[(&a, 0.5), (&b, 0.5)], 60, 10, Weights { recency: 0.0, ..Weights::default() });
        assert_eq!(ranked[0].id, 2);
        assert!(rank(&[], 0, 10, Weights::default()).is_empty());
    }

    #[test]
    fn word_overlap_counts_the_query_words_found() {
        assert_eq!(word_overlap("where is the coal", "the chest at 4 64 9 holds 12 coal"), 2.0 / 3.0);
        assert_eq!(word_overlap("", "anything"), 0.0);
        assert_eq!(word_overlap("Iron ORE", "iron_ore seen at 1 2 3"), 1.0);
    }
}
