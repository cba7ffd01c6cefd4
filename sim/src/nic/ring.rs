//! A fixed-capacity first-word-fall-through FIFO: storage allocated once,
//! `push`/`pop` never allocate. "Full" and "empty" as the spec uses them are
//! start-of-cycle flags, so callers sample them before a cycle's pushes
//! and pops.

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ring<T: Copy + Default> {
    slots: Vec<T>,
    head: usize,
    count: usize,
}

impl<T: Copy + Default> Ring<T> {
    pub fn new(cap: usize) -> Self {
        Ring { slots: vec![T::default(); cap], head: 0, count: 0 }
    }
    pub fn clear(&mut self) {
        self.slots.fill(T::default());
        self.head = 0;
        self.count = 0;
    }
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    pub fn is_full(&self) -> bool {
        self.count == self.slots.len()
    }
    /// The front entry; `None` when empty.
    pub fn front(&self) -> Option<&T> {
        (self.count > 0).then(|| &self.slots[self.head])
    }
    /// Panics when full: the spec never pushes into a full FIFO.
    pub fn push(&mut self, v: T) {
        assert!(!self.is_full(), "push into a full NIC FIFO");
        let cap = self.slots.len();
        let i = (self.head + self.count) % cap;
        self.slots[i] = v;
        self.count += 1;
    }
    /// Panics when empty.
    pub fn pop(&mut self) -> T {
        assert!(self.count > 0, "pop from an empty NIC FIFO");
        let v = self.slots[self.head];
        self.head = (self.head + 1) % self.slots.len();
        self.count -= 1;
        v
    }
    /// Entry i from the front (i < len).
    pub fn get(&self, i: usize) -> &T {
        debug_assert!(i < self.count);
        &self.slots[(self.head + i) % self.slots.len()]
    }
    /// Removes entry i from the front, keeping the order of the others
    /// (the doorbell queues' skip, docs/nic.md §6).
    pub fn remove(&mut self, i: usize) -> T {
        assert!(i < self.count);
        let cap = self.slots.len();
        let v = *self.get(i);
        for j in i..self.count - 1 {
            self.slots[(self.head + j) % cap] = self.slots[(self.head + j + 1) % cap];
        }
        self.count -= 1;
        v
    }
}
