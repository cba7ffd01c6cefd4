//! The NIC's ports (docs/nic.md §3) as plain structs, one per cycle.
//!
//! Field names drop the `s_axil_` / `m_axi_` prefixes and the `_i`/`_o`
//! suffixes of the Verilog names; the struct they sit in says which side.

use crate::link::LinkFlit;

/// AXI4-Lite slave inputs (the host's requests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AxiLiteIn {
    pub awaddr: u32,
    pub awvalid: bool,
    pub wdata: u32,
    pub wstrb: u8,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u32,
    pub arvalid: bool,
    pub rready: bool,
}

/// AXI4-Lite slave outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AxiLiteOut {
    /// `awvalid & wvalid & !bvalid_q` (docs/nic.md §5.2): depends on the
    /// cycle's inputs, so it is only meaningful after [`super::Nic::settle`].
    pub awready: bool,
    /// Equal to `awready`.
    pub wready: bool,
    pub bresp: u8,
    pub bvalid: bool,
    pub arready: bool,
    pub rdata: u32,
    pub rresp: u8,
    pub rvalid: bool,
}

/// AXI4 master inputs (the host memory's answers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AxiIn {
    pub arready: bool,
    /// AXW bits (32 or 64).
    pub rdata: u64,
    pub rresp: u8,
    /// Ignored by the NIC (it counts beats).
    pub rlast: bool,
    pub rvalid: bool,
    pub awready: bool,
    pub wready: bool,
    pub bresp: u8,
    pub bvalid: bool,
}

/// AXI4 master outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AxiOut {
    pub araddr: u32,
    pub arlen: u8,
    pub arsize: u8,
    pub arburst: u8,
    pub arvalid: bool,
    pub rready: bool,
    pub awaddr: u32,
    pub awlen: u8,
    pub awsize: u8,
    pub awburst: u8,
    pub awvalid: bool,
    pub wdata: u64,
    pub wstrb: u8,
    pub wlast: bool,
    pub wvalid: bool,
    pub bready: bool,
}

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NicInputs {
    pub axil: AxiLiteIn,
    pub axi: AxiIn,
    /// `inj_credit_i`: bit u = the router freed a slot of its input VC u.
    pub inj_credit: u32,
    /// `inj_credit_lane_i` (`per_lane` credits only): the lane of each
    /// credit, in [`crate::link::credit_lane`]'s word layout; 0 otherwise.
    pub inj_credit_lanes: u64,
    /// The ejection link (`ej_*_i`); `dummy` is forced to 0 outside P mode.
    pub ej: LinkFlit,
}

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NicOutputs {
    pub irq: bool,
    pub axil: AxiLiteOut,
    pub axi: AxiOut,
    /// The injection link (`inj_*_o`); all 0 when not valid, `dummy` always 0.
    pub inj: LinkFlit,
    /// `ej_credit_o`: bit u = one slot of receive VC u was freed.
    pub ej_credit: u32,
    /// `ej_credit_lane_o` (`per_lane` credits only): the lane of each
    /// credit, in [`crate::link::credit_lane`]'s word layout; 0 otherwise.
    pub ej_credit_lanes: u64,
}
