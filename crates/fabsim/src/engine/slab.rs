//! A slab: values addressed by `u32`, with a free list so that freed slots are reused and a
//! warmed-up run allocates nothing per packet.

pub struct Slab<T> {
    items: Vec<T>,
    free: Vec<u32>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<T> Slab<T> {
    #[inline]
    pub fn insert(&mut self, value: T) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.items[i as usize] = value;
                i
            }
            None => {
                self.items.push(value);
                (self.items.len() - 1) as u32
            }
        }
    }

    /// Marks slot `i` free. The value stays in place until the slot is reused.
    #[inline]
    pub fn remove(&mut self, i: u32) {
        self.free.push(i);
    }

    #[inline]
    pub fn get(&self, i: u32) -> &T {
        &self.items[i as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, i: u32) -> &mut T {
        &mut self.items[i as usize]
    }

    /// Slots in use.
    pub fn live(&self) -> usize {
        self.items.len() - self.free.len()
    }
}
