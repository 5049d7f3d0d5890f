//! Resources (typed singletons) and events: sending them, and reading them with an `EventReader`.

use std::any::{TypeId, type_name};

use super::{Resource, World};
use crate::events::{EventReader, Events};

impl World {
    /// Store a singleton of type `R` (input, time, camera, ...), replacing and returning any old
    /// one.
    pub fn insert_resource<R: 'static>(&mut self, resource: R) -> Option<R> {
        let resource = Resource {
            value: Box::new(resource),
            name: type_name::<R>(),
        };
        self.resources
            .insert(TypeId::of::<R>(), resource)
            .map(|old| {
                *old.value
                    .downcast::<R>()
                    .expect("resource stored under its own TypeId")
            })
    }

    /// The `R` resource.
    ///
    /// # Panics
    /// If no `R` was inserted; use [`World::get_resource`] when that is expected.
    #[inline]
    pub fn resource<R: 'static>(&self) -> &R {
        self.get_resource().unwrap_or_else(|| {
            panic!(
                "no resource `{}`: call World::insert_resource first",
                type_name::<R>()
            )
        })
    }

    /// The `R` resource, mutably.
    ///
    /// # Panics
    /// If no `R` was inserted; use [`World::get_resource_mut`] when that is expected.
    #[inline]
    pub fn resource_mut<R: 'static>(&mut self) -> &mut R {
        self.get_resource_mut().unwrap_or_else(|| {
            panic!(
                "no resource `{}`: call World::insert_resource first",
                type_name::<R>()
            )
        })
    }

    /// The `R` resource, if inserted.
    #[inline]
    pub fn get_resource<R: 'static>(&self) -> Option<&R> {
        self.resources.get(&TypeId::of::<R>())?.value.downcast_ref()
    }

    /// The `R` resource mutably, if inserted.
    #[inline]
    pub fn get_resource_mut<R: 'static>(&mut self) -> Option<&mut R> {
        self.resources
            .get_mut(&TypeId::of::<R>())?
            .value
            .downcast_mut()
    }

    /// Remove and return the `R` resource.
    pub fn remove_resource<R: 'static>(&mut self) -> Option<R> {
        self.resources.remove(&TypeId::of::<R>()).map(|old| {
            *old.value
                .downcast::<R>()
                .expect("resource stored under its own TypeId")
        })
    }

    /// Every resource type the world holds: its `TypeId` and its [`type_name`], in no
    /// particular order. For checks that must cover every resource, such as a test that a
    /// state hash or a save format misses none; compare `TypeId`s (the names are for messages,
    /// and `std` does not promise their exact form).
    ///
    /// ```
    /// use std::any::TypeId;
    ///
    /// struct Score(u32);
    /// let mut world = ecs::World::new();
    /// world.insert_resource(Score(0));
    /// let types: Vec<_> = world.resource_types().collect();
    /// assert_eq!(types.len(), 1);
    /// assert_eq!(types[0].0, TypeId::of::<Score>());
    /// assert!(types[0].1.ends_with("Score"));
    /// ```
    pub fn resource_types(&self) -> impl ExactSizeIterator<Item = (TypeId, &'static str)> + '_ {
        self.resources.iter().map(|(&id, r)| (id, r.name))
    }

    /// Send an event to every [`EventReader<E>`](crate::EventReader).
    pub fn send<E: 'static>(&mut self, event: E) {
        self.events
            .entry(TypeId::of::<E>())
            .or_insert_with(|| Box::new(Events::<E>::default()))
            .as_any_mut()
            .downcast_mut::<Events<E>>()
            .expect("events stored under their own TypeId")
            .send(event);
    }

    /// The queue of `E` events, if any were ever sent.
    pub fn events<E: 'static>(&self) -> Option<&Events<E>> {
        self.events.get(&TypeId::of::<E>())?.as_any().downcast_ref()
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
