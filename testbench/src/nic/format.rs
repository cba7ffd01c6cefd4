//! The NIC's link format (docs/nic.md §4) as the testbench reads and writes
//! it, built on the configuration's header layout: the checker side of the
//! format, kept apart from the model's.

use wormqos_config::{Field, HeaderLayout, RouterConfig};
use wormqos_sim::LinkFlit;

/// Bit positions of every field the NIC puts in a flit.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub header: HeaderLayout,
    pub hdr_src: Field,
    pub hdr_seq: Field,
    pub index: Field,
    pub body_src: Field,
    pub body_seq: Field,
    pub poison: Field,
    pub payload: Field,
}

impl Layout {
    pub fn new(cfg: &RouterConfig) -> Self {
        let nic = cfg.nic().expect("a [nic] section");
        let header = cfg.header();
        let dw = header.dest.width;
        let hw = header.dest.width + header.class.width + header.vtick.width;
        let ixw = nic.index_width();
        let f = |lsb, width| Field { lsb, width };
        Layout {
            header,
            hdr_src: f(hw, dw),
            hdr_seq: f(hw + dw, 8),
            index: f(0, ixw),
            body_src: f(ixw, dw),
            body_seq: f(ixw + dw, 8),
            poison: f(ixw + dw + 8, 1),
            payload: f(nic.tag_width(dw), nic.axi_data_width),
        }
    }

    /// A real header flit of a message `{src, seq}`.
    pub fn header_flit(&self, dest: u64, class: u64, vtick: u64, src: u64, seq: u64) -> LinkFlit {
        let mut fl = LinkFlit { lane: 0, valid: true, head: true, ..LinkFlit::IDLE };
        for (field, v) in [(self.header.dest, dest), (self.header.class, class), (self.header.vtick, vtick), (self.hdr_src, src), (self.hdr_seq, seq)] {
            field.insert(&mut fl.data, v);
        }
        fl
    }

    /// Body flit k (tail when `tail`); a poisoned one carries no payload.
    pub fn body_flit(&self, k: u64, src: u64, seq: u64, poison: bool, beat: u64, tail: bool) -> LinkFlit {
        let mut fl = LinkFlit { lane: 0, valid: true, tail, ..LinkFlit::IDLE };
        let payload = if poison { 0 } else { beat };
        for (field, v) in [(self.index, k), (self.body_src, src), (self.body_seq, seq), (self.poison, poison as u64), (self.payload, payload)] {
            field.insert(&mut fl.data, v);
        }
        fl
    }
}
