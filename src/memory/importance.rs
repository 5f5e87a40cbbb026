//! How much a memory matters, 1 (an everyday chore) to 10 (a life-changing event): fixed rules for the kinds of event
//! the bot records itself; the LLM rates what people said, in batches with anchored examples (its answers are read
//! in [`super::answers`]). Pure.

use super::Subject;

/// The importance given to a memory until the LLM has rated it.
pub const PROVISIONAL: u8 = 3;
/// Memories rated in one LLM call.
pub const BATCH: usize = 12;

/// Ores worth remembering where they are, with how much finding them matters.
const ORES: &[(&str, u8)] = &[
    ("diamond", 8),
    ("emerald", 7),
    ("gold", 5),
    ("iron", 5),
    ("lapis", 4),
    ("redstone", 4),
    ("copper", 3),
    ("coal", 3),
];

/// The rule's importance for `subject`, or `None` when only the LLM can tell (what people said).
pub fn by_rule(subject: &Subject) -> Option<u8> {
    Some(match subject {
        Subject::Heard { .. } => return None,
        Subject::Died => 9,
        Subject::Asked { .. } => 6,
        Subject::Hurt { .. } => 6,
        Subject::Task { ok: false } => 5,
        Subject::Task { ok: true } => 4,
        Subject::Told { .. } => 8,
        Subject::Chest { items } => {
            if items.is_empty() {
                2
            } else {
                4
            }
        }
        Subject::Seen { block, .. } => ORES.iter().find(|(ore, _)| block.contains(ore)).map_or(2, |(_, i)| *i),
        Subject::Met { .. } => 3,
        // An insight is rated from its evidence when it is written (see `insight_importance`).
        Subject::Insight => 6,
    })
}

/// An insight matters as much as the most important memory it rests on, and at least a little more than an
/// everyday chore.
pub fn insight_importance(evidence: &[u8]) -> u8 {
    evidence.iter().copied().max().unwrap_or(PROVISIONAL).clamp(4, 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_rate_the_bots_own_events() {
        assert_eq!(by_rule(&Subject::Died), Some(9));
        assert_eq!(by_rule(&Subject::Seen { block: "deepslate_diamond_ore".into(), count: 2 }), Some(8));
        assert_eq!(by_rule(&Subject::Seen { block: "crafting_table".into(), count: 1 }), Some(2));
        assert_eq!(by_rule(&Subject::Heard { from: "Alex".into() }), None, "what people say is for the LLM");
        assert_eq!(insight_importance(&[2, 3]), 4);
        assert_eq!(insight_importance(&[2, 9]), 9);
    }
}
