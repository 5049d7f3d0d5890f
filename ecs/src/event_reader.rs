//! [`EventReader`], a system's cursor into one type's events.

use std::marker::PhantomData;

use crate::World;

/// A system's cursor into an event queue: [`EventReader::read`] returns each event once (the
/// crate's README has an example).
#[derive(Debug)]
pub struct EventReader<E> {
    pub(crate) next: u64,
    _event: PhantomData<fn() -> E>,
}

impl<E> Default for EventReader<E> {
    fn default() -> Self {
        Self {
            next: 0,
            _event: PhantomData,
        }
    }
}

impl<E: 'static> EventReader<E> {
    /// Events sent since this reader last read (that are still queued), oldest first.
    pub fn read<'w>(&mut self, world: &'w World) -> impl Iterator<Item = &'w E> + 'w {
        let (skip, events) = match world.events::<E>() {
            Some(events) => {
                let skip = self.next.saturating_sub(events.first) as usize;
                self.next = events.end();
                (skip, Some(events))
            }
            None => (0, None),
        };
        events
            .into_iter()
            .flat_map(move |ev| ev.queue.iter().skip(skip))
    }
}
