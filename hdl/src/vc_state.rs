//! The states of an input VC (docs/microarchitecture.md §4): IDLE (no
//! message), ROUTED (route known, waiting for VA), ACTIVE (owns an output
//! VC). Both input port builders declare them as named `localparam`s and
//! write their state machines as a `case` over them.

use crate::verilog::{Expr, Module, Result};

/// Width of the state register.
pub(crate) const STATE_WIDTH: u32 = 2;

/// The encodings (the reset state is IDLE).
const IDLE: u64 = 0;
const ROUTED: u64 = 1;
const ACTIVE: u64 = 2;

/// The named states of one module, as expressions for comparisons,
/// assignments and `case` labels.
pub(crate) struct VcStates {
    pub idle: Expr,
    pub routed: Expr,
    pub active: Expr,
}

impl VcStates {
    /// Declares `VC_IDLE`, `VC_ROUTED`, `VC_ACTIVE` in `md`.
    pub fn declare(md: &mut Module) -> Result<VcStates> {
        md.comment("Input VC states (docs/microarchitecture.md §4)");
        let w = STATE_WIDTH;
        Ok(VcStates {
            idle: md.localparam("VC_IDLE", w, None, &format!("{w}'d{IDLE}")),
            routed: md.localparam("VC_ROUTED", w, None, &format!("{w}'d{ROUTED}")),
            active: md.localparam("VC_ACTIVE", w, None, &format!("{w}'d{ACTIVE}")),
        })
    }
}
