//! Each bot's memory stream: how many memories, when to reflect, recall's weights, and the persona.

use super::*;

/// Who the bot is, for the curriculum's choices (`[memory.persona]`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Persona {
    #[serde(default)]
    pub name: String,
    /// A few words: `careful, curious`.
    #[serde(default)]
    pub traits: String,
    /// What it likes to do: `mining and building`.
    #[serde(default)]
    pub likes: String,
}

impl Persona {
    /// One line for a prompt, or `None` when nothing is set.
    pub fn line(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.name.trim().is_empty() {
            parts.push(format!("You are {}.", self.name.trim()));
        }
        if !self.traits.trim().is_empty() {
            parts.push(format!("You are {}.", self.traits.trim()));
        }
        if !self.likes.trim().is_empty() {
            parts.push(format!("You like {}.", self.likes.trim()));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// Each bot's memory stream, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryConfig {
    pub enabled: bool,
    /// Memories kept per bot; past it low-scoring old observations are forgotten first.
    pub max_memories: usize,
    /// Importance gathered since the last reflection that makes the next one due.
    pub reflect_after: u32,
    /// Game days over which a memory's recency halves.
    pub half_life_days: f64,
    /// Recall's weights: recency, importance, relevance.
    pub weights: [f32; 3],
    pub persona: Option<Persona>,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        MemoryConfig {
            enabled: true,
            max_memories: 100_000,
            reflect_after: 150,
            half_life_days: 1.0,
            weights: [0.5, 2.0, 3.0],
            persona: None,
        }
    }
}

pub(super) fn resolve_memory(file: FileMemory, no_memory: bool) -> Result<MemoryConfig, ConfigError> {
    let default = MemoryConfig::default();
    let max_memories = file.max_memories.unwrap_or(default.max_memories);
    if !(100..=10_000_000).contains(&max_memories) {
        return Err(ConfigError::Memory(format!("max_memories = {max_memories}: use 100 to 10000000")));
    }
    let reflect_after = file.reflect_after.unwrap_or(default.reflect_after);
    if !(10..=100_000).contains(&reflect_after) {
        return Err(ConfigError::Memory(format!("reflect_after = {reflect_after}: use 10 to 100000")));
    }
    let half_life_days = file.half_life_days.unwrap_or(default.half_life_days);
    if !(half_life_days.is_finite() && (0.01..=1000.0).contains(&half_life_days)) {
        return Err(ConfigError::Memory(format!("half_life_days = {half_life_days}: use 0.01 to 1000 game days")));
    }
    let weights = [
        ("recency_weight", file.recency_weight, default.weights[0]),
        ("importance_weight", file.importance_weight, default.weights[1]),
        ("relevance_weight", file.relevance_weight, default.weights[2]),
    ]
    .map(|(key, value, fallback)| (key, value.unwrap_or(fallback)));
    if let Some((key, value)) = weights.iter().find(|(_, w)| !(w.is_finite() && (0.0..=100.0).contains(w))) {
        return Err(ConfigError::Memory(format!("{key} = {value}: use 0 to 100")));
    }
    if weights.iter().all(|(_, w)| *w == 0.0) {
        return Err(ConfigError::Memory("the three weights are 0: recall could not rank anything".to_owned()));
    }
    Ok(MemoryConfig {
        enabled: file.enabled.unwrap_or(true) && !no_memory,
        max_memories,
        reflect_after,
        half_life_days,
        weights: weights.map(|(_, w)| w),
        persona: file.persona.filter(|p| p.line().is_some()),
    })
}
