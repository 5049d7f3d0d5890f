//! Undo and redo: each step records what it changed, not a copy of the map, so a long session
//! on a large map stays small.

use super::Side;
use super::map::Grid;
use super::meta::Meta;

/// One changed cell: where, what it held, what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellChange {
    pub x: u16,
    pub y: u16,
    pub old: char,
    pub new: char,
}

/// One undoable step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Cells painted (a stroke, a fill, a single paint), in the order they were changed.
    Cells(Vec<CellChange>),
    /// Rows or columns added or removed on one side; a shrink keeps the cells it removed.
    Resize {
        side: Side,
        delta: i32,
        removed: Vec<char>,
    },
    /// The name or crate overrides changed: the overlay before and after.
    Meta { before: Meta, after: Meta },
}

impl Step {
    /// Roughly how many cells the step keeps, for the history's budget.
    fn cost(&self) -> usize {
        match self {
            Step::Cells(changes) => changes.len(),
            Step::Resize { removed, .. } => removed.len(),
            Step::Meta { .. } => 1,
        }
        .max(1)
    }

    /// Apply the step to `grid` and `meta` again.
    pub fn redo(&self, grid: &mut Grid, meta: &mut Meta) {
        match self {
            Step::Meta { after, .. } => *meta = after.clone(),
            Step::Cells(changes) => {
                for c in changes {
                    grid.set(u32::from(c.x), u32::from(c.y), c.new);
                }
            }
            Step::Resize { side, delta, .. } => {
                // It was applied once from this very state, so it fits.
                let _ = grid.resize(*side, *delta, &[]);
            }
        }
    }

    /// Take the step back from `grid` and `meta`.
    pub fn undo(&self, grid: &mut Grid, meta: &mut Meta) {
        match self {
            Step::Meta { before, .. } => *meta = before.clone(),
            Step::Cells(changes) => {
                for c in changes.iter().rev() {
                    grid.set(u32::from(c.x), u32::from(c.y), c.old);
                }
            }
            Step::Resize {
                side,
                delta,
                removed,
            } => {
                // The state before the step had this size, so the reverse resize fits.
                let _ = grid.resize(*side, -*delta, removed);
            }
        }
    }
}

/// Most cells the undo history keeps (about 12 bytes each); past it the oldest steps go.
/// Sixteen full fills of a 1024 x 1024 map, one of the largest (4096 x 4096).
pub const HISTORY_CELLS: usize = 16 * 1024 * 1024;

/// The undo and redo stacks.
#[derive(Debug, Default)]
pub(crate) struct History {
    done: std::collections::VecDeque<Step>,
    undone: Vec<Step>,
    cells: usize,
}

impl History {
    /// Record a step just applied; it clears the redo stack.
    pub fn push(&mut self, step: Step) {
        self.undone.clear();
        self.cells += step.cost();
        self.done.push_back(step);
        while self.cells > HISTORY_CELLS && self.done.len() > 1 {
            if let Some(old) = self.done.pop_front() {
                self.cells -= old.cost();
            }
        }
    }

    /// The step to undo, moved to the redo stack.
    pub fn undo(&mut self) -> Option<&Step> {
        let step = self.done.pop_back()?;
        self.cells -= step.cost();
        self.undone.push(step);
        self.undone.last()
    }

    /// The step to redo, moved back to the undo stack.
    pub fn redo(&mut self) -> Option<&Step> {
        let step = self.undone.pop()?;
        self.cells += step.cost();
        self.done.push_back(step);
        self.done.back()
    }

    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(n: usize) -> Step {
        let change = CellChange {
            x: 0,
            y: 0,
            old: '.',
            new: '#',
        };
        Step::Cells(vec![change; n])
    }

    #[test]
    fn past_the_budget_the_oldest_steps_go_but_never_the_newest() {
        let mut history = History::default();
        history.push(cells(HISTORY_CELLS / 2));
        history.push(cells(HISTORY_CELLS / 2));
        history.push(cells(1));
        // The first step went to make room; the other two can still be undone.
        assert!(history.undo().is_some());
        assert!(history.undo().is_some());
        assert!(history.undo().is_none());
        assert!(history.redo().is_some() && history.redo().is_some());
        // A single step over the budget is kept: the last edit can always be undone.
        history.push(cells(HISTORY_CELLS + 1));
        assert_eq!(history.done.len(), 1);
        assert!(history.undo().is_some());
    }
}
