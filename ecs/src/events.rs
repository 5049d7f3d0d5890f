//! Typed events' queues: messages from one system to the others, kept until every
//! [`EventReader`](crate::EventReader) has had its turn.

use std::any::Any;
use std::collections::VecDeque;

/// Queue of events of one type, readable until the end of the next *full* update (one that
/// gave every enabled system its turn: not debug-only, no panic).
#[derive(Debug)]
pub(crate) struct Events<E> {
    pub(crate) queue: VecDeque<E>,
    /// Sequence number of `queue[0]`.
    pub(crate) first: u64,
    /// Events numbered below this were sent before the previous full update ended.
    keep_from: u64,
}

impl<E> Default for Events<E> {
    fn default() -> Self {
        Self {
            queue: VecDeque::new(),
            first: 0,
            keep_from: 0,
        }
    }
}

impl<E> Events<E> {
    /// Number one past the newest event.
    pub(crate) fn end(&self) -> u64 {
        self.first + self.queue.len() as u64
    }

    pub(crate) fn send(&mut self, event: E) {
        self.queue.push_back(event);
    }
}

pub(crate) trait AnyEvents: Any + Send {
    /// Drop events sent before the previous full update ended (this one being full).
    fn end_update(&mut self);
    /// Whether no event is queued (then [`AnyEvents::end_update`] changes nothing).
    fn is_empty(&self) -> bool;
    /// Number one past the newest event ever sent.
    fn end(&self) -> u64;
}

impl<E: 'static + Send> AnyEvents for Events<E> {
    fn end_update(&mut self) {
        let stale = (self.keep_from - self.first) as usize;
        self.queue.drain(..stale);
        self.first = self.keep_from;
        self.keep_from = self.end();
    }

    fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    fn end(&self) -> u64 {
        Events::end(self)
    }
}
