//! AXI handshake rules checked on the channels the NIC drives (docs/nic.md
//! §14, issue 20 item 6): VALID, once high, stays high until the handshake,
//! and the payload is stable while VALID is high and READY low.

use std::fmt::Debug;

/// One channel's watcher: remembers the payload of a stalled transfer.
#[derive(Clone, Debug)]
pub struct Channel<P> {
    name: &'static str,
    stalled: Option<P>,
}

impl<P: Copy + PartialEq + Debug> Channel<P> {
    pub fn new(name: &'static str) -> Self {
        Channel { name, stalled: None }
    }

    pub fn reset(&mut self) {
        self.stalled = None;
    }

    /// The channel in one cycle (from the sender's outputs and the
    /// receiver's READY); an error names the rule broken.
    pub fn check(&mut self, cycle: u64, valid: bool, ready: bool, payload: P) -> Result<(), String> {
        let r = match self.stalled {
            Some(_) if !valid => Err(format!("cycle {cycle}: {} VALID dropped before READY", self.name)),
            Some(p) if p != payload => {
                Err(format!("cycle {cycle}: {} payload changed while stalled: {p:?} -> {payload:?}", self.name))
            }
            _ => Ok(()),
        };
        self.stalled = (valid && !ready).then_some(payload);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_valid_and_a_changed_payload_are_caught() {
        let mut c = Channel::new("AW");
        assert!(c.check(0, true, false, 5u32).is_ok());
        assert!(c.check(1, true, true, 5).is_ok());
        assert!(c.check(2, false, false, 9).is_ok(), "no transfer pending");
        assert!(c.check(3, true, false, 1).is_ok());
        assert!(c.check(4, true, false, 2).unwrap_err().contains("payload changed"));
        assert!(c.check(5, false, true, 2).unwrap_err().contains("VALID dropped"));
    }
}
