//! The store's schema, one numbered step at a time. A step never changes once released: a new need is a new step.
//! [`super::Store::connect`] applies the steps a database lacks, each in its own transaction, under an advisory lock
//! so processes starting together do not race; a database newer than this build is refused, not touched.

/// One schema step: its number (1, 2, …), what it does, and its SQL.
pub struct Migration {
    pub version: i32,
    pub about: &'static str,
    pub sql: &'static str,
}

/// Every step, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        about: "skill versions",
        sql: "
CREATE TABLE skill_versions (
    name        text        NOT NULL,
    version     integer     NOT NULL CHECK (version > 0),
    code        text        NOT NULL,
    description text        NOT NULL,
    task        text        NOT NULL DEFAULT '',
    -- When the skill was made (UTC, RFC 3339, as the folder library writes it).
    created     text        NOT NULL DEFAULT '',
    -- The search text's embedding (little-endian f32) and the model that made it, when search was at hand.
    embedding   bytea,
    model       text,
    -- Who stored this version: a bot, or `wayfarer skills export` from a folder.
    origin      text        NOT NULL DEFAULT '',
    stored_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, version)
);",
    },
    Migration {
        version: 2,
        about: "a notice on every new skill version",
        sql: "
CREATE FUNCTION wayfarer_skill_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('wayfarer_skills', NEW.name || ' ' || NEW.version);
    RETURN NEW;
END
$$;
CREATE TRIGGER skill_stored AFTER INSERT ON skill_versions
    FOR EACH ROW EXECUTE FUNCTION wayfarer_skill_stored();",
    },
    Migration {
        version: 3,
        about: "goal books and their owners",
        sql: "
CREATE TABLE goals (
    -- The bot that first took the goal and its number in that bot's book: `Crew_2#7`.
    key         text        PRIMARY KEY,
    -- The bot that works on it now: one at a time; a leader hands it on when its owner is gone.
    owner       text        NOT NULL,
    -- The owner before the last handover.
    handed_from text,
    text        text        NOT NULL,
    asked_by    text        NOT NULL,
    -- pending, active, completed, failed, stopped or dropped.
    status      text        NOT NULL,
    -- A team goal its owner leads: its plan is the stages of jobs handed out.
    team        boolean     NOT NULL DEFAULT false,
    -- The goal as its owner's book has it: plans, tasks with their statuses and reasons, the inventory each task
    -- counts from, a team's long-term plan.
    book        jsonb       NOT NULL,
    updated     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX goals_by_owner ON goals (owner, status);",
    },
];

/// The schema version this build writes and reads.
pub fn latest() -> i32 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_numbered_one_by_one() {
        for (i, step) in MIGRATIONS.iter().enumerate() {
            assert_eq!(step.version, i as i32 + 1, "{}", step.about);
            assert!(!step.sql.trim().is_empty());
        }
        assert_eq!(latest(), MIGRATIONS.len() as i32);
    }
}
