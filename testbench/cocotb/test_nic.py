"""cocotb test of the generated NIC (docs/nic.md), driven by cocotbext-axi.

Host side: cocotbext-axi's AxiLiteMaster (doorbells, registers) and AxiRam
(host memory, random backpressure on all five channels, an unmapped hole
answering SLVERR). Router side: a behavioural router port that sinks the
injection link (returning credits after a random delay, never more flits
in flight per VC than the router's input buffer holds) and loops every
message back into the ejection link, split into parts with a dummy tail
and a dummy header in P mode, on random VCs.

Everything expected here is derived from docs/nic.md and the configuration
(params JSON), not from the generator.
"""
import json
import os
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam

# Register offsets (docs/nic.md §5.1).
ID, CONFIG, NODE_ID, CONTROL, STATUS = 0x000, 0x004, 0x008, 0x00C, 0x010
IRQ_ENABLE, IRQ_STATUS, TX_COUNT = 0x014, 0x018, 0x01C
RX_POST_LEN, RX_POST_ADDR, RXC_INFO, RXC_LEN, RXC_ADDR, RXC_POP = 0x020, 0x024, 0x028, 0x02C, 0x030, 0x034
DB = 0x100
OKAY, SLVERR, DECERR = 0, 2, 3

DESC_BASE, PAY_BASE, RXBUF_BASE, RXBUF_END = 0x1000, 0x3000, 0x8000, 0xF000
HOLE = (0xF000, 0x10000)  # unmapped: SLVERR


def v(sig):
    return int(sig.value)


def bits(x, lo, w):
    return (x >> lo) & ((1 << w) - 1)


class Nic:
    def __init__(self, dut, p, seed):
        self.dut, self.p = dut, p
        self.rng = random.Random(seed)
        self.M, self.W, self.DI, self.DD = p["m"], p["w"], p["di"], p["dd"]
        self.BB, self.AXW, self.IXW, self.KMAX = p["bb"], p["axw"], p["ixw"], p["kmax"]
        self.DW, self.CW, self.VTW, self.HW = p["dw"], p["cw"], p["vtw"], p["hw"]
        self.TAGW = self.IXW + self.DW + 8 + 1
        self.pre = p["preemptive"]
        self.cycle = 0
        self.hold = [False] * self.M
        self.out = [0] * self.M
        self.injected = []  # finished messages on the injection link, in tail order
        self.tail_left = set()  # descriptors whose message's tail has left the NIC
        self.ar_log = []  # AR handshake addresses, in order
        self.descs = {}  # desc addr -> expected message
        self.ejq = [deque() for _ in range(self.M)]
        self.rx_done = []  # (status, class, src, len, addr, data)
        self.first_desc = None
        self.errors = []

    # ---------------------------------------------------------------- setup
    async def start(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, 10, unit="ns").start())
        d.rst.value = 1
        d.inj_credit.value = 0
        d.ej_valid.value = 0
        d.ej_vc.value = 0
        d.ej_head.value = 0
        d.ej_tail.value = 0
        d.ej_data.value = 0
        if self.pre:
            d.ej_dummy.value = 0
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(d, "s_axil"), d.clk, d.rst)
        self.ram = AxiRam(AxiBus.from_prefix(d, "m_axi"), d.clk, d.rst, size=1 << 16)
        for ch in (self.ram.write_if.aw_channel, self.ram.write_if.w_channel, self.ram.write_if.b_channel,
                   self.ram.read_if.ar_channel, self.ram.read_if.r_channel):
            ch.set_pause_generator(self.pauses())
        rd, wr = self.ram.read_if._read, self.ram.write_if._write

        async def read(address, length):
            if HOLE[0] <= address < HOLE[1]:
                raise ValueError("unmapped")
            return await rd(address, length)

        async def write(address, data):
            if HOLE[0] <= address < HOLE[1]:
                raise ValueError("unmapped")
            return await wr(address, data)

        self.ram.read_if._read = read
        self.ram.write_if._write = write
        await ClockCycles(d.clk, 5)
        d.rst.value = 0
        for co in (self.router_port(), self.ej_feeder(), self.axi_monitor()):
            cocotb.start_soon(co)
        await ClockCycles(d.clk, 2)

    def pauses(self):
        while True:
            yield self.rng.random() < 0.3

    def check(self, cond, what):
        if not cond:
            self.errors.append(f"cycle {self.cycle}: {what}")
            raise AssertionError(f"cycle {self.cycle}: {what}")

    # ------------------------------------------------------- host accesses
    async def wr(self, addr, val):
        return (await self.axil.write(addr, val.to_bytes(4, "little"))).resp

    async def rd(self, addr):
        r = await self.axil.read(addr, 4)
        return int.from_bytes(r.data, "little"), r.resp

    async def rd_ok(self, addr):
        x, resp = await self.rd(addr)
        self.check(resp == OKAY, f"read of 0x{addr:03x} answered {resp}")
        return x

    def mem_u32(self, addr):
        return int.from_bytes(self.ram.read(addr, 4), "little")

    # -------------------------------------------------- the router's port
    async def router_port(self):
        """Sinks the injection link with credit flow control and loops back."""
        d, due, cur = self.dut, [deque() for _ in range(self.M)], [None] * self.M
        last_vc = None
        while True:
            await RisingEdge(d.clk)
            self.cycle += 1
            credit = 0
            for u in range(self.M):
                if not self.hold[u] and due[u] and due[u][0] <= self.cycle:
                    due[u].popleft()
                    credit |= 1 << u
                    self.out[u] -= 1
            d.inj_credit.value = credit
            if not v(d.inj_valid):
                continue
            vc, head, tail, data = v(d.inj_vc), v(d.inj_head), v(d.inj_tail), v(d.inj_data)
            if self.pre:
                self.check(v(d.inj_dummy) == 0, "the NIC sent a dummy flit")
            self.check(vc < self.M, f"injected flit on VC {vc}")
            self.out[vc] += 1
            self.check(self.out[vc] <= self.DI, f"VC {vc}: {self.out[vc]} flits in flight, the router holds {self.DI}")
            due[vc].append(self.cycle + self.rng.randint(1, 10))
            if self.p["message_level"] and last_vc is not None and cur[last_vc] is not None:
                self.check(vc == last_vc, "message-level injection interleaved two messages")
            last_vc = vc
            if head:
                self.check(cur[vc] is None, f"VC {vc}: header inside a message")
                self.check(not tail, "a one-flit message")
                cur[vc] = {
                    "vc": vc, "dest": bits(data, 0, self.DW), "cls": bits(data, self.DW, self.CW),
                    "vtick": bits(data, self.DW + self.CW, self.VTW), "src": bits(data, self.HW, self.DW),
                    "seq": bits(data, self.HW + self.DW, 8), "beats": [], "poison": [], "hdr": data,
                }
                self.check(data >> (self.HW + self.DW + 8) == 0, "header bits above seq are not 0")
                continue
            m = cur[vc]
            self.check(m is not None, f"VC {vc}: body flit without a header")
            k = bits(data, 0, self.IXW)
            self.check(k == len(m["beats"]) + 1, f"VC {vc}: flit index {k} after {len(m['beats'])}")
            self.check(bits(data, self.IXW, self.DW) == m["src"] and bits(data, self.IXW + self.DW, 8) == m["seq"],
                       "body flit key differs from its header's")
            m["poison"].append(bits(data, self.IXW + self.DW + 8, 1))
            m["beats"].append(bits(data, self.TAGW, self.AXW))
            m["bodies"] = m.get("bodies", []) + [data]
            if tail:
                cur[vc] = None
                self.finish_injected(m)

    def finish_injected(self, m):
        self.injected.append(m)
        payload = b"".join(x.to_bytes(self.BB, "little") for x in m["beats"])
        # Which descriptor sent it: same header fields and payload (poisoned beats read as 0).
        match = None
        for addr, e in self.descs.items():
            if e["sent"] or e["code"] not in (0, 8):
                continue
            if (e["dest"], e["cls"], e["vtick"], e["vc"]) != (m["dest"], m["cls"], m["vtick"], m["vc"]):
                continue
            if len(e["payload"]) != len(payload):
                continue
            ok = all(p or payload[i * self.BB:(i + 1) * self.BB] == e["payload"][i * self.BB:(i + 1) * self.BB]
                     for i, p in enumerate(m["poison"]))
            if ok and (any(m["poison"]) == (e["code"] == 8)):
                match = addr
                break
        self.check(match is not None, f"injected message matches no rung descriptor: {m['dest'], m['cls'], len(payload)}")
        self.descs[match]["sent"] = True
        self.tail_left.add(match)
        m["desc"] = match
        self.loop_back(m)

    def loop_back(self, m):
        """Feeds the message into the ejection link, maybe in two parts (P mode)."""
        hdr = (0, 1, 0, m["hdr"])  # dummy, head, tail, data
        bodies = [(0, 0, i + 1 == len(m["bodies"]), b) for i, b in enumerate(m["bodies"])]
        a = self.rng.randrange(self.M)
        if self.pre and len(bodies) >= 2 and self.rng.random() < 0.6:
            j = self.rng.randint(1, len(bodies) - 1)
            dummy_hdr = m["hdr"] & ((1 << self.HW) - 1)
            part1 = [hdr] + bodies[:j] + [(1, 0, 1, 0)]
            part2 = [(1, 1, 0, dummy_hdr)] + bodies[j:]
            b = self.rng.randrange(self.M)
            self.ejq[a].extend(part1)
            self.ejq[b].extend(part2)
        else:
            self.ejq[a].extend([hdr] + bodies)

    async def ej_feeder(self):
        d, credits = self.dut, [self.DD] * self.M
        while True:
            await RisingEdge(d.clk)
            c = v(d.ej_credit)
            for u in range(self.M):
                if c >> u & 1:
                    credits[u] += 1
                    self.check(credits[u] <= self.DD, f"ejection VC {u}: more credits returned than flits sent")
            cands = [u for u in range(self.M) if self.ejq[u] and credits[u] > 0]
            if cands and self.rng.random() < 0.85:
                u = self.rng.choice(cands)
                dm, head, tail, data = self.ejq[u].popleft()
                credits[u] -= 1
                d.ej_valid.value, d.ej_vc.value, d.ej_head.value, d.ej_tail.value, d.ej_data.value = 1, u, head, tail, data
                if self.pre:
                    d.ej_dummy.value = dm
            else:
                d.ej_valid.value, d.ej_vc.value, d.ej_head.value, d.ej_tail.value, d.ej_data.value = 0, 0, 0, 0, 0
                if self.pre:
                    d.ej_dummy.value = 0

    async def axi_monitor(self):
        """AXI rules on the NIC's channels: VALID held until READY, payload stable."""
        d = self.dut
        chans = {
            "ar": ("m_axi_arvalid", "m_axi_arready", ["m_axi_araddr", "m_axi_arlen", "m_axi_arsize"]),
            "aw": ("m_axi_awvalid", "m_axi_awready", ["m_axi_awaddr", "m_axi_awlen", "m_axi_awsize"]),
            "w": ("m_axi_wvalid", "m_axi_wready", ["m_axi_wdata", "m_axi_wstrb", "m_axi_wlast"]),
        }
        prev = {}
        while True:
            await RisingEdge(d.clk)
            for name, (vs, rs, pay) in chans.items():
                valid, ready = v(getattr(d, vs)), v(getattr(d, rs))
                payload = tuple(v(getattr(d, s)) for s in pay)
                if name in prev:
                    self.check(valid, f"{name}: VALID dropped before READY")
                    self.check(payload == prev[name], f"{name}: payload changed while stalled")
                if valid and not ready:
                    prev[name] = payload
                else:
                    prev.pop(name, None)
                if valid and ready and name == "ar":
                    self.ar_log.append(payload[0])
                if valid and ready and name == "aw":
                    a = payload[0]
                    if (a - 16) in self.descs and (a - 16) % 32 == 0:
                        e = self.descs[a - 16]
                        if e["code"] in (0, 8):
                            self.check(a - 16 in self.tail_left,
                                       f"status of descriptor 0x{a - 16:x} written before its last flit left")

    # --------------------------------------------------------- send side
    def classes_vcs(self, cls):
        vcc = self.p["vcc"]
        return [u for u in range(self.M) if not vcc or vcc[u] == cls]

    def make(self, desc, cls, vc, beats=None, dest=None, vtick=None, length=None, paddr=None, code=0, payload=None):
        beats = beats if beats is not None else self.rng.randint(1, self.KMAX)
        dest = dest if dest is not None else self.rng.randrange(self.p["endpoints"])
        if vtick is None:
            vtick = self.rng.choice([0, (1 << self.VTW) - 1, self.rng.randint(1, 200)])
        length = length if length is not None else beats * self.BB
        paddr = paddr if paddr is not None else PAY_BASE + (desc - DESC_BASE) // 32 * self.KMAX * self.BB
        if payload is None:
            payload = bytes(self.rng.randrange(256) for _ in range(max(0, length)))
        if not (HOLE[0] <= paddr < HOLE[1]) and code in (0, 8):
            self.ram.write(paddr, payload)
        if not (HOLE[0] <= desc < HOLE[1]):
            self.ram.write(desc, b"".join(x.to_bytes(4, "little") for x in (dest, vtick, length, paddr, 0)))
        if code == 8:
            payload = bytes(len(payload))
        self.descs[desc] = {"dest": dest, "cls": cls, "vc": vc, "vtick": vtick & ((1 << self.VTW) - 1),
                            "payload": payload, "code": code, "sent": False}
        return desc

    async def ring(self, desc, cls, vc, bad=0):
        return await self.wr(DB + 4 * cls, desc | (bad << 4) | vc)

    async def ring_retry(self, desc, cls, vc):
        """Rings until the class's queue has room (a full queue answers SLVERR)."""
        for _ in range(500):
            resp = await self.ring(desc, cls, vc)
            if resp == OKAY:
                return
            self.check(resp == SLVERR, f"doorbell answered {resp}")
            await ClockCycles(self.dut.clk, 20)
        self.check(False, "a doorbell queue stayed full")

    async def wait_status(self, desc, budget=8000):
        for _ in range(budget // 10):
            w = self.mem_u32(desc + 16) if not (HOLE[0] <= desc < HOLE[1]) else None
            if w is not None and w >> 31:
                return w & 0xF
            await ClockCycles(self.dut.clk, 10)
        self.check(False, f"descriptor 0x{desc:x}: no completion")

    async def wait_all(self, descs, budget=8000):
        for x in descs:
            if HOLE[0] <= x < HOLE[1]:
                continue
            code = await self.wait_status(x, budget)
            self.check(code == self.descs[x]["code"], f"descriptor 0x{x:x}: status {code}, expected {self.descs[x]['code']}")

    # ------------------------------------------------------ receive side
    async def host_rx(self):
        """Pops receive completions, reads the buffers, reposts buffers."""
        while True:
            info = await self.rd_ok(RXC_INFO)
            if not info >> 31:
                await ClockCycles(self.dut.clk, 20)
                continue
            length, addr = await self.rd_ok(RXC_LEN), await self.rd_ok(RXC_ADDR)
            self.check(await self.wr(RXC_POP, 0) == OKAY, "RXC_POP rejected")
            data = self.ram.read(addr, length) if length else b""
            self.rx_done.append((bits(info, 24, 4), bits(info, 16, 8), bits(info, 0, 16), length, addr, data))
            if addr != self.small_buf:
                self.free_bufs.append(addr)
            await self.post(self.free_bufs.popleft())

    async def post(self, addr, length=None):
        await self.wr(RX_POST_LEN, length if length is not None else self.KMAX * self.BB)
        return await self.wr(RX_POST_ADDR, addr)

    async def wait_rx(self, n, budget=8000):
        for _ in range(budget // 20):
            if len(self.rx_done) >= n:
                return
            await ClockCycles(self.dut.clk, 20)
        u = self.dut.u_nic.u_rx
        ctx = [(v(getattr(u, f"ctx{c}_valid_q")), v(getattr(u, f"ctx{c}_count_q")), v(getattr(u, f"ctx{c}_last_q")),
                v(getattr(u, f"ctx{c}_got_head_q")), v(getattr(u, f"ctx{c}_got_tail_q"))) for c in range(self.p["rx_contexts"])]
        self.check(False, f"only {len(self.rx_done)} of {n} messages received; rx state {v(u.state_q)}, "
                          f"contexts (valid, count, last, head, tail) {ctx}, ejection queues {[len(q) for q in self.ejq]}, "
                          f"empty {v(u.empty):b}")

    def check_rx(self):
        """Every looped-back message arrived once, intact (docs/nic.md §11)."""
        expect = []
        for m in self.injected:
            if m["desc"] == self.first_desc:
                continue
            payload = b"".join(x.to_bytes(self.BB, "little") for x in m["beats"])
            expect.append((3 if any(m["poison"]) else 0, m["cls"], m["src"], len(payload), payload, m["poison"]))
        got = list(self.rx_done)
        self.check(len(got) == len(expect), f"{len(got)} receive completions for {len(expect)} messages")
        for st, cls, src, length, payload, poison in expect:
            hit = None
            for i, (gst, gcls, gsrc, glen, _addr, gdata) in enumerate(got):
                if (gst, gcls, gsrc, glen) != (st, cls, src, length):
                    continue
                if all(p or gdata[k * self.BB:(k + 1) * self.BB] == payload[k * self.BB:(k + 1) * self.BB]
                       for k, p in enumerate(poison)):
                    hit = i
                    break
            if hit is None:
                near = [(g[0], g[1], g[2], g[3]) for g in got]
                self.check(False, f"message (class {cls}, src {src}, {length} bytes, status {st}) not received intact; "
                                  f"unmatched completions {near}")
            got.pop(hit)


def params():
    with open(os.environ["NIC_PARAMS"]) as f:
        return json.load(f)


@cocotb.test()
async def nic_end_to_end(dut):
    p = params()
    n = Nic(dut, p, int(os.environ.get("NIC_SEED", "1")))
    await n.start()
    node = 1 % p["endpoints"]
    ck = n.check

    # Identity, configuration and bad addresses (docs/nic.md §5.1).
    ck(await n.rd_ok(ID) == 0x4E494301, "ID")
    cfg = await n.rd_ok(CONFIG)
    ck((cfg & 0xFF, cfg >> 8 & 0xFF, cfg >> 16 & 1, cfg >> 24) == (p["m"], p["s"], int(p["qos"]), p["bb"]), f"CONFIG {cfg:x}")
    ck((await n.rd(0x040))[1] == DECERR, "read of an unmapped register")
    ck(await n.wr(0x040, 1) == DECERR, "write of an unmapped register")
    if p["s"] < 8:
        ck(await n.wr(DB + 4 * p["s"], DESC_BASE) == DECERR, "doorbell of class s")
    ck(await n.wr(NODE_ID, node) == OKAY and await n.rd_ok(NODE_ID) == node, "NODE_ID")
    ck(await n.wr(IRQ_ENABLE, 0x1F) == OKAY, "IRQ_ENABLE")

    # Posted buffers: a one-beat buffer first, then the queue full, then one too many.
    bufsize = n.KMAX * n.BB
    n.small_buf = RXBUF_BASE
    n.free_bufs = deque(range(RXBUF_BASE + bufsize, RXBUF_END - bufsize, bufsize))
    ck(await n.post(n.small_buf, n.BB) == OKAY, "post")
    for _ in range(p["post_depth"] - 1):
        ck(await n.post(n.free_bufs.popleft()) == OKAY, "post")
    ck(await n.post(n.free_bufs[0]) == SLVERR, "a post to a full queue is rejected")
    ck((await n.rd_ok(STATUS)) & 0x2, "STATUS.POST_OVF")
    ck((await n.rd_ok(IRQ_STATUS)) >> 4 & 1 and v(dut.irq) == 1, "IRQ OVF raises irq_o")
    ck(await n.wr(STATUS, 0xF) == OKAY and await n.wr(IRQ_STATUS, 0x1F) == OKAY, "W1C")
    await ClockCycles(dut.clk, 2)
    ck((await n.rd_ok(STATUS)) & 0xF == 0 and v(dut.irq) == 0, "STATUS and irq_o cleared")
    ck(await n.wr(CONTROL, 3) == OKAY, "CONTROL")

    # The first message gets the one-beat buffer: RX_OVERFLOW (docs/nic.md §11.4).
    vc0 = n.classes_vcs(0)[0]
    first = n.make(DESC_BASE, 0, vc0, beats=3)
    n.first_desc = first
    ck(await n.ring(first, 0, vc0) == OKAY, "doorbell")
    await n.wait_all([first])
    await n.wait_rx_small()
    cocotb.start_soon(n.host_rx())

    # Random traffic over every class and VC.
    descs, k = [], 1
    for _ in range(14):
        cls = n.rng.randrange(p["s"])
        vc = n.rng.choice(n.classes_vcs(cls))
        d = n.make(DESC_BASE + 32 * k, cls, vc)
        k += 1
        await n.ring_retry(d, cls, vc)
        descs.append(d)
    await n.wait_all(descs)

    # Malformed descriptors complete with their codes; the NIC goes on (docs/nic.md §13).
    errs = []
    vc_ok = n.classes_vcs(0)[0]

    def e(code, **kw):
        nonlocal k
        d = n.make(DESC_BASE + 32 * k, 0, kw.pop("vc", vc_ok), code=code, **kw)
        k += 1
        errs.append((d, kw.get("bad", 0)))
        return d

    e(1, length=0)
    e(2, beats=n.KMAX + 1)
    e(3, length=n.BB + 1)
    e(4, dest=p["endpoints"])
    if n.VTW < 32:
        e(5, vtick=1 << n.VTW)
    e(6, beats=2, paddr=PAY_BASE + 1)
    e(8, beats=2, paddr=HOLE[0])
    e(0, beats=2)
    if p["m"] < 16:
        e(9, vc=p["m"])
    if p["vcc"] and p["s"] > 1:
        e(9, vc=n.classes_vcs(1)[0])
    for d, _ in errs:
        await n.ring_retry(d, 0, n.descs[d]["vc"])
    bad_align = DESC_BASE + 32 * k
    k += 1
    n.make(bad_align, 0, vc_ok, code=10)
    await n.wait_all([d for d, _ in errs])
    ck(await n.ring(bad_align, 0, vc_ok, bad=1) == OKAY, "doorbell")
    hole_desc = HOLE[0] + 0x100
    n.descs[hole_desc] = {"code": 7, "sent": False}
    ck(await n.ring(hole_desc, 0, vc_ok) == OKAY, "doorbell")
    await n.wait_all([d for d, _ in errs] + [bad_align])
    await n.wait_all_errors_seen()

    # A full doorbell queue rejects visibly (docs/nic.md §5.2).
    ck(await n.wr(CONTROL, 2) == OKAY, "TX off")
    ck(await n.wr(STATUS, 0xF) == OKAY, "W1C")
    full = []
    for _ in range(p["q"]):
        d = n.make(DESC_BASE + 32 * k, 0, vc_ok, beats=1)
        k += 1
        ck(await n.ring(d, 0, vc_ok) == OKAY, "doorbell below the depth")
        full.append(d)
    extra = n.make(DESC_BASE + 32 * k, 0, vc_ok, beats=1)
    k += 1
    ck(await n.ring(extra, 0, vc_ok) == SLVERR, "a doorbell to a full queue is rejected")
    del n.descs[extra]
    ck((await n.rd_ok(STATUS)) & 0x401 == 0x401, "STATUS.DB_OVF and DB_PENDING")
    ck(await n.wr(CONTROL, 3) == OKAY, "TX on")
    await n.wait_all(full)

    # Doorbell order (docs/nic.md §6): qos serves the highest class first,
    # the traditional NIC in ring order. Checked on the descriptor fetches.
    ck(await n.wr(CONTROL, 2) == OKAY, "TX off")
    order = []
    for cls in [0, 0] + list(range(1, p["s"])):
        vc = n.rng.choice(n.classes_vcs(cls))
        d = n.make(DESC_BASE + 32 * k, cls, vc, beats=1)
        k += 1
        ck(await n.ring(d, cls, vc) == OKAY, "doorbell")
        order.append((cls, d))
    n.ar_log.clear()
    ck(await n.wr(CONTROL, 3) == OKAY, "TX on")
    await n.wait_all([d for _, d in order])
    fetched = [a for a in n.ar_log if DESC_BASE <= a < PAY_BASE]
    want = [d for _, d in sorted(order, key=lambda x: -x[0])] if p["qos"] else [d for _, d in order]
    ck(fetched == want, f"descriptor fetch order {[hex(a) for a in fetched]}, expected {[hex(a) for a in want]}")

    # No head-of-line blocking in the QoS NIC (docs/nic.md §6): VC a's send
    # queue is full (its credits held), so a doorbell for it is skipped.
    if p["qos"] and len(n.classes_vcs(0)) >= 2:
        a, b = n.classes_vcs(0)[:2]
        n.hold[a] = True
        big = n.make(DESC_BASE + 32 * k, 0, a, beats=n.DI + p["b"] - 1)
        k += 1
        ck(await n.ring(big, 0, a) == OKAY, "doorbell")
        for _ in range(400):
            busy = (await n.rd_ok(STATUS)) >> 8 & 1
            if n.out[a] >= n.DI and not busy:
                break
        ck(n.out[a] >= n.DI and not busy, "the long message filled VC a's credits and send queue")
        x = n.make(DESC_BASE + 32 * k, 0, a, beats=1)
        y = n.make(DESC_BASE + 32 * (k + 1), 0, b, beats=1)
        k += 2
        ck(await n.ring(x, 0, a) == OKAY and await n.ring(y, 0, b) == OKAY, "doorbells")
        await n.wait_all([y], budget=3000)
        ck(n.mem_u32(x + 16) >> 31 == 0, "the doorbell behind a full queue completed early")
        n.hold[a] = False
        await n.wait_all([big, x])

    # The first message's completion (into the one-beat buffer) is in rx_done too.
    await n.wait_rx(len(n.injected))
    await ClockCycles(dut.clk, 200)
    ck(len(n.rx_done) == len(n.injected), "a message arrived twice")
    n.rx_done = [r for r in n.rx_done if r[4] != n.small_buf]
    n.check_rx()
    ist = await n.rd_ok(IRQ_STATUS)
    ck(ist & 0xF == 0xF and v(dut.irq) == 1, f"IRQ_STATUS {ist:x}: TX and RX done and error")
    ck(await n.rd_ok(TX_COUNT) == sum(1 for x in n.descs.values()), "TX_COUNT counts every completion")
    ck(not n.errors, f"checks failed: {n.errors}")
    dut._log.info("NIC: %d messages sent and received, %d descriptors", len(n.injected), len(n.descs))


async def _wait_rx_small(self):
    """The first message completes into the one-beat buffer with RX_OVERFLOW."""
    for _ in range(2000):
        info = await self.rd_ok(RXC_INFO)
        if info >> 31:
            break
        await ClockCycles(self.dut.clk, 10)
    self.check(info >> 31, "no completion for the first message")
    length, addr = await self.rd_ok(RXC_LEN), await self.rd_ok(RXC_ADDR)
    self.check(bits(info, 24, 4) == 1 and addr == self.small_buf and length == 3 * self.BB,
               f"first message: status {bits(info, 24, 4)}, addr {addr:x}, len {length}")
    self.check(await self.wr(RXC_POP, 0) == OKAY, "RXC_POP")
    self.rx_done.append((1, 0, 0, length, addr, b""))
    await self.post(self.free_bufs.popleft())


async def _wait_all_errors_seen(self):
    """The descriptor in the unmapped hole: its status write fails too (WB_ERR)."""
    for _ in range(2000):
        st = await self.rd_ok(STATUS)
        if st & 0x4:
            return
        await ClockCycles(self.dut.clk, 10)
    self.check(False, "STATUS.WB_ERR after a descriptor in the unmapped hole")


Nic.wait_rx_small = _wait_rx_small
Nic.wait_all_errors_seen = _wait_all_errors_seen
