//! What the editor changes in a level file besides its map: the level's name, and crate
//! overrides edited in place (their skin and health). Kept as a small overlay on the file as
//! opened, so undo restores it exactly and a save rewrites only what it names.

/// A crate override as the editor writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrateOverride {
    pub health: Option<i64>,
    pub skin: Option<String>,
    pub coin: Option<bool>,
}

impl CrateOverride {
    /// Whether it changes nothing (an entry for it is left out).
    pub fn is_empty(&self) -> bool {
        self.health.is_none() && self.skin.is_none() && self.coin.is_none()
    }
}

/// One override edited in the editor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OverrideEdit {
    /// Its cell on the map as opened (so it stays with its crate across resizes).
    pub at: (i64, i64),
    pub fields: CrateOverride,
}

/// The overlay: `None` / absent means "as the file says".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Meta {
    pub name: Option<String>,
    pub overrides: Vec<OverrideEdit>,
}

impl Meta {
    /// The edit for cell `at` (map-as-opened coordinates), if there is one.
    pub fn override_at(&self, at: (i64, i64)) -> Option<&CrateOverride> {
        self.overrides
            .iter()
            .find(|o| o.at == at)
            .map(|o| &o.fields)
    }

    /// Set (replace) the edit for cell `at`.
    pub fn set_override(&mut self, at: (i64, i64), fields: CrateOverride) {
        match self.overrides.iter_mut().find(|o| o.at == at) {
            Some(edit) => edit.fields = fields,
            None => self.overrides.push(OverrideEdit { at, fields }),
        }
    }
}

/// An override entry: `(at: (x, y), health: 5, skin: "keg", coin: true)`.
pub(crate) fn override_entry(at: (i64, i64), fields: &CrateOverride) -> String {
    let mut out = format!("(at: ({}, {})", at.0, at.1);
    if let Some(health) = fields.health {
        out.push_str(&format!(", health: {health}"));
    }
    if let Some(skin) = &fields.skin {
        out.push_str(&format!(", skin: {}", super::quote::quote(skin)));
    }
    if let Some(coin) = fields.coin {
        out.push_str(&format!(", coin: {coin}"));
    }
    out.push(')');
    out
}
