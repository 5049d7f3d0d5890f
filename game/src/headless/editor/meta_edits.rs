//! Editing the level's name and crate overrides: each change checked by the validator first,
//! and one undo step.

use super::Editor;
use super::history::Step;
use super::meta::{self, CrateOverride, Meta};
use super::quote::quote;
use crate::level::{self, LevelError};

impl Editor {
    /// The level's name, as it would be saved.
    pub fn name(&self) -> &str {
        self.meta.name.as_deref().unwrap_or(&self.base.name)
    }

    /// Rename the level, as one undo step; whether anything changed.
    ///
    /// # Errors
    /// What `check` would say of the file with this name (an empty name, one over 64
    /// characters), with the same message; the level is unchanged.
    pub fn set_name(&mut self, name: &str) -> Result<bool, LevelError> {
        if name == self.name() {
            return Ok(false);
        }
        let mut meta = self.meta.clone();
        meta.name = Some(name.to_owned());
        let probe = format!("(name: {}, map: [\"@\"])", quote(name));
        self.change_meta(meta, &probe)
    }

    /// The override of the crate at (`x`, `y`) as a save would write it (`health`, `skin`,
    /// `coin`; all `None` when it has none).
    pub fn crate_override(&self, x: u32, y: u32) -> CrateOverride {
        let at = self.opened_cell(x, y);
        if let Some(fields) = self.meta.override_at(at) {
            return fields.clone();
        }
        self.base
            .overrides
            .iter()
            .find(|o| (i64::from(o.at.0), i64::from(o.at.1)) == at)
            .map(|o| o.fields.clone())
            .unwrap_or_default()
    }

    /// Set the override of the crate at (`x`, `y`), as one undo step: its entry in `crates` is
    /// written (added, rewritten as one line, or removed when every field is `None`). Whether
    /// anything changed.
    ///
    /// # Errors
    /// What `check` would say of the file with this override (a health out of 1 to 1000, a
    /// skin the atlas does not have, a cell that holds no crate), with the same message; the
    /// level is unchanged.
    pub fn set_crate_override(
        &mut self,
        x: u32,
        y: u32,
        fields: CrateOverride,
    ) -> Result<bool, LevelError> {
        if fields == self.crate_override(x, y) {
            return Ok(false);
        }
        let holds_crate = self
            .cell(x, y)
            .and_then(|c| self.base.glyph(c))
            .is_some_and(|g| matches!(g, level::validate::Glyph::Crate { .. }));
        if !holds_crate {
            return Err(LevelError::whole_file(
                &self.path,
                format!("({x}, {y}) holds no crate to override"),
            ));
        }
        let probe = format!(
            "(name: \"x\", map: [\"@c\"], crates: [{}])",
            meta::override_entry((1, 0), &fields)
        );
        let mut meta = self.meta.clone();
        meta.set_override(self.opened_cell(x, y), fields);
        self.change_meta(meta, &probe)
    }

    /// Cell (`x`, `y`) of the map being edited, in the coordinates of the map as opened.
    fn opened_cell(&self, x: u32, y: u32) -> (i64, i64) {
        let (ox, oy) = self.grid.origin();
        (i64::from(x) + ox, i64::from(y) + oy)
    }

    /// Make `meta` the overlay as one undo step, unless the validator refuses the text it
    /// gives (then its error is returned and nothing changes). While the level has a problem
    /// of its own (say, no player start), the validator would report that first: then the
    /// change is checked alone, as `probe`, a one-line level holding only it (the message is
    /// `check`'s; its position is the probe's).
    fn change_meta(&mut self, meta: Meta, probe: &str) -> Result<bool, LevelError> {
        self.end_stroke();
        let text = self.base.render(&self.grid, &meta).text;
        if let Err(e) = level::parse(&self.path, &text, &self.skin_refs()) {
            if self.problem().is_none() {
                return Err(e);
            }
            level::parse(&self.path, probe, &self.skin_refs())?;
        }
        let before = std::mem::replace(&mut self.meta, meta.clone());
        self.history.push(Step::Meta {
            before,
            after: meta,
        });
        self.forget_verdict();
        Ok(true)
    }
}
