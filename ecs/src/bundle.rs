//! Bundles: groups of components that [`World::spawn`] inserts together, and the spawning
//! itself (`spawn`, `spawn_batch`, `reserve`).

use std::any::{TypeId, type_name};

use crate::column::{AnyColumn, downcast_mut};
use crate::component::{Component, ComponentId, ComponentSet};
use crate::world::BundleInfo;
use crate::{Entity, World};

/// A group of components inserted together by [`World::spawn`]: `()` and tuples of up to eight
/// distinct component types. It is sealed: these are the only bundles.
pub trait Bundle: Sealed + 'static + Send {}

/// What [`World::spawn`] does with a bundle; out of reach of other crates, so that no bundle
/// can declare a component it does not insert.
///
/// ```compile_fail
/// use ecs::{ComponentId, Entity, World};
/// struct Forged;
/// impl ecs::Bundle for Forged {
///     fn register(world: &mut World, ids: &mut Vec<ComponentId>) {
///         ids.push(world.register::<u32>());
///     }
///     fn insert_into(self, _: &mut World, _: Entity, _: &[ComponentId]) {}
/// }
/// ```
pub trait Sealed {
    /// Register every component type, pushing their ids in tuple order.
    fn register(world: &mut World, ids: &mut Vec<ComponentId>);

    /// Insert every component into its column for `entity`, by the `ids` of [`Sealed::register`].
    #[allow(private_interfaces)] // no other crate can name this trait
    fn insert_into(self, columns: &mut [Box<dyn AnyColumn>], entity: Entity, ids: &[ComponentId]);
}

macro_rules! tuple_bundle {
    ($($name:ident $_value:ident),*) => {
        impl<$($name: Component),*> Bundle for ($($name,)*) {}

        impl<$($name: Component),*> Sealed for ($($name,)*) {
            #[allow(unused_variables)]
            fn register(world: &mut World, ids: &mut Vec<ComponentId>) {
                $(ids.push(world.register::<$name>());)*
            }

            #[allow(non_snake_case, unused_variables, unused_mut, private_interfaces)]
            fn insert_into(
                self,
                columns: &mut [Box<dyn AnyColumn>],
                entity: Entity,
                ids: &[ComponentId],
            ) {
                let ($($name,)*) = self;
                let mut ids = ids.iter();
                $(
                    let id = ids.next().expect("one id per component");
                    downcast_mut::<$name>(&mut *columns[id.index()]).insert_spawned(entity, $name);
                )*
            }
        }
    };
}

all_tuples!(tuple_bundle; A a, B b, C c, D d, E e, F f, G g, H h);

impl World {
    /// Create an entity with the components in `bundle` (a tuple, or `()` for none). Systems
    /// see it, newly tracked, on their next run.
    ///
    /// # Panics
    /// If the bundle names a component type twice, or registers one past
    /// [`MAX_COMPONENT_TYPES`](crate::MAX_COMPONENT_TYPES); nothing is spawned then.
    ///
    /// ```
    /// let mut world = ecs::World::new();
    /// let e = world.spawn((1u8, "name"));
    /// assert_eq!(world.get::<&str>(e), Some(&"name"));
    /// ```
    pub fn spawn<B: Bundle>(&mut self, bundle: B) -> Entity {
        let b = self.bundle_index::<B>();
        let entity = self.entities.alloc();
        let info = &self.bundles[b];
        // No user code runs from here on (a bundle's types are distinct: nothing is replaced).
        bundle.insert_into(&mut self.columns, entity, &info.ids);
        if let Some(sig) = self.entities.components_mut(entity) {
            *sig = info.signature;
        }
        for k in 0..self.bundles[b].systems.len() {
            self.refresh_membership(self.bundles[b].systems[k], entity);
        }
        entity
    }

    /// Spawn one entity per bundle, in order, and return them, having reserved room for the
    /// iterator's size hint ([`World::reserve`]).
    pub fn spawn_batch<B: Bundle>(&mut self, bundles: impl IntoIterator<Item = B>) -> Vec<Entity> {
        let bundles = bundles.into_iter();
        self.reserve::<B>(bundles.size_hint().0);
        bundles.map(|bundle| self.spawn(bundle)).collect()
    }

    /// Make room for `additional` more entities of bundle `B` (entity slots, `B`'s columns, the
    /// sets of the systems that will track them), with exact capacities: no slack from doubling.
    pub fn reserve<B: Bundle>(&mut self, additional: usize) {
        let b = self.bundle_index::<B>();
        let slot_end = self.entities.reserve(additional);
        let info = &self.bundles[b];
        for id in &info.ids {
            self.columns[id.index()].reserve(additional, slot_end);
        }
        for &s in &info.systems {
            let slot = &mut self.systems[s];
            if slot.running.is_some() || !info.signature.is_superset(&slot.required) {
                continue;
            }
            slot.sets.tracked.reserve(additional, slot_end);
            let low = u32::try_from(additional).map_or(0, |n| slot_end.saturating_sub(n));
            slot.added.reserve(low..slot_end);
            if !slot.watches.is_empty() {
                slot.dirty.reserve(low..slot_end);
            }
        }
    }

    /// Index of `B`'s info in `bundles`, computed on first use, refreshed once systems are added.
    fn bundle_index<B: Bundle>(&mut self) -> usize {
        let b = match self.bundle_ids.get(&TypeId::of::<B>()) {
            Some(&b) => b,
            None => {
                let mut ids = Vec::new();
                B::register(self, &mut ids);
                let mut signature = ComponentSet::EMPTY;
                for &id in &ids {
                    if signature.contains(id) {
                        let name = self.component_types[id.index()].1;
                        panic!("the bundle `{}` names `{name}` twice", type_name::<B>());
                    }
                    signature.insert(id);
                }
                self.bundle_ids
                    .insert(TypeId::of::<B>(), self.bundles.len());
                self.bundles.push(BundleInfo {
                    ids,
                    signature,
                    systems: Vec::new(),
                    systems_seen: usize::MAX,
                });
                self.bundles.len() - 1
            }
        };
        // Systems are never removed, so the count tells whether the list is current.
        if self.bundles[b].systems_seen != self.systems.len() {
            let mut systems = self.requires_nothing.clone();
            for id in self.bundles[b].signature.iter() {
                systems.extend_from_slice(&self.requirers[id.index()]);
            }
            systems.sort_unstable();
            systems.dedup();
            let info = &mut self.bundles[b];
            info.systems = systems;
            info.systems_seen = self.systems.len();
        }
        b
    }
}
