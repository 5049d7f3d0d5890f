//! Bundles: groups of components that [`World::spawn`] inserts together.

use crate::column::AnyColumn;
use crate::component::{Component, ComponentId};
use crate::world::downcast_mut;
use crate::{Entity, World};

/// A group of components inserted together by [`World::spawn`]: `()` and tuples of up to eight
/// distinct component types. It is sealed: these are the only bundles.
///
/// Inserting as a bundle updates system membership once, after all components are in place.
///
/// ```
/// let mut world = ecs::World::new();
/// let e = world.spawn((1u8, "name"));
/// assert_eq!(world.get::<&str>(e), Some(&"name"));
/// ```
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

    /// Insert every component into its column for `entity`; `ids` is what
    /// [`Sealed::register`] returned.
    #[allow(private_interfaces)] // no other crate can name this trait
    fn insert_into(self, columns: &mut [Box<dyn AnyColumn>], entity: Entity, ids: &[ComponentId]);
}

macro_rules! tuple_bundle {
    ($($name:ident),*) => {
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

tuple_bundle!();
tuple_bundle!(A);
tuple_bundle!(A, B);
tuple_bundle!(A, B, C);
tuple_bundle!(A, B, C, D);
tuple_bundle!(A, B, C, D, E);
tuple_bundle!(A, B, C, D, E, F);
tuple_bundle!(A, B, C, D, E, F, G);
tuple_bundle!(A, B, C, D, E, F, G, H);
