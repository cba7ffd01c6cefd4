//! The NIC's register byte offsets as docs/nic.md §5.1 lists them, written
//! from the document and not taken from the golden model, so that a wrong
//! offset in the model (or the RTL) is a test failure, not a shared error.

pub const NODE_ID: u32 = 0x008;
pub const CONTROL: u32 = 0x00C;
pub const STATUS: u32 = 0x010;
pub const IRQ_ENABLE: u32 = 0x014;
pub const IRQ_STATUS: u32 = 0x018;
pub const TX_COUNT: u32 = 0x01C;
pub const RX_POST_LEN: u32 = 0x020;
pub const RX_POST_ADDR: u32 = 0x024;
pub const RXC_INFO: u32 = 0x028;
pub const RXC_LEN: u32 = 0x02C;
pub const RXC_ADDR: u32 = 0x030;
pub const RXC_POP: u32 = 0x034;
/// `DB[c]` is at `DB + 4c`.
pub const DB: u32 = 0x100;
