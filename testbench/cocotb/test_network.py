"""cocotb test of a whole network with a NIC at every endpoint
(`<name>_system`, docs/integration.md "A whole network with a NIC at every
endpoint"), driven only through the endpoints' host ports by cocotbext-axi.

Per endpoint k (ports `p<k>_*`): an AxiLiteMaster on the NIC's register
slave and an AxiRam as its host memory, with random backpressure on all
five AXI channels. Each endpoint's host sets NODE_ID = k, keeps receive
buffers posted, sends messages to random endpoints (itself included) with
random classes, VCs, lengths, Vticks and payloads, plus a few malformed
descriptors, and pops receive completions.

Checked, from docs/nic.md and the parameters alone: every send completes
with DONE and the status its descriptor calls for (§7.1, §13); every
well-formed message arrives exactly once, at its destination endpoint,
intact (RXC status 0, source = the sender's NODE_ID, class, length, every
payload byte, §11.4); nothing else arrives.
"""
import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Combine
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam

# Register offsets (docs/nic.md §5.1).
NODE_ID, CONTROL, IRQ_ENABLE = 0x008, 0x00C, 0x014
RX_POST_LEN, RX_POST_ADDR, RXC_INFO, RXC_LEN, RXC_ADDR, RXC_POP = 0x020, 0x024, 0x028, 0x02C, 0x030, 0x034
DB = 0x100
OKAY, SLVERR = 0, 2
# Send status codes (docs/nic.md §13).
LEN_ZERO, LEN_NOT_BEATS, DEST_RANGE = 1, 3, 4

DESC_BASE, PAY_BASE, RXBUF_BASE = 0x1000, 0x4000, 0x10000
RAM_SIZE = 1 << 18


class Host:
    """One endpoint's host: its AXI4-Lite master, its memory, its program."""

    def __init__(self, dut, p, k, rng, log):
        self.dut, self.p, self.k, self.rng, self.log = dut, p, k, rng, log
        self.bb, self.kmax = p["bb"], p["kmax"]
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, f"p{k}_s_axil"), dut.clk, dut.rst)
        self.ram = AxiRam(AxiBus.from_prefix(dut, f"p{k}_m_axi"), dut.clk, dut.rst, size=RAM_SIZE)
        for ch in (self.ram.write_if.aw_channel, self.ram.write_if.w_channel, self.ram.write_if.b_channel,
                   self.ram.read_if.ar_channel, self.ram.read_if.r_channel):
            ch.set_pause_generator(self.pauses())
        self.received = []  # (status, class, src, length, payload)
        self.errors = []
        self.bufsize = self.kmax * self.bb

    def pauses(self):
        while True:
            yield self.rng.random() < 0.3

    def check(self, cond, what):
        if not cond:
            self.errors.append(f"endpoint {self.k}: {what}")
            raise AssertionError(f"endpoint {self.k}: {what}")

    async def wr(self, addr, val):
        return (await self.axil.write(addr, val.to_bytes(4, "little"))).resp

    async def rd(self, addr):
        r = await self.axil.read(addr, 4)
        self.check(r.resp == OKAY, f"read of 0x{addr:03x} answered {r.resp}")
        return int.from_bytes(r.data, "little")

    async def setup(self):
        self.check(await self.wr(NODE_ID, self.k) == OKAY, "NODE_ID")
        self.check(await self.wr(IRQ_ENABLE, 0x1F) == OKAY, "IRQ_ENABLE")
        self.check(await self.wr(RX_POST_LEN, self.bufsize) == OKAY, "RX_POST_LEN")
        self.free = [RXBUF_BASE + i * self.bufsize for i in range(self.p["post_depth"] + 4)]
        for _ in range(self.p["post_depth"]):
            self.check(await self.wr(RX_POST_ADDR, self.free.pop()) == OKAY, "post")
        self.check(await self.wr(CONTROL, 3) == OKAY, "CONTROL")

    async def send(self, slot, msg):
        """Writes descriptor and payload, rings (again while the queue is
        full), waits for the status word, checks its code."""
        desc = DESC_BASE + 32 * slot
        paddr = PAY_BASE + slot * self.bufsize
        self.ram.write(paddr, msg["payload"])
        words = (msg["dest"], msg["vtick"], msg["length"], paddr, 0)
        self.ram.write(desc, b"".join(x.to_bytes(4, "little") for x in words))
        for _ in range(1000):
            resp = await self.wr(DB + 4 * msg["cls"], desc | msg["vc"])
            if resp == OKAY:
                break
            self.check(resp == SLVERR, f"doorbell answered {resp}")
            await ClockCycles(self.dut.clk, 20)
        else:
            self.check(False, "a doorbell queue stayed full")
        for _ in range(3000):
            status = int.from_bytes(self.ram.read(desc + 16, 4), "little")
            if status >> 31:
                break
            await ClockCycles(self.dut.clk, 10)
        else:
            self.check(False, f"descriptor 0x{desc:x}: no completion")
        self.check(status == (1 << 31) | msg["code"], f"descriptor 0x{desc:x}: status 0x{status:x}, expected code {msg['code']}")

    async def sender(self, msgs):
        # At most 4 sends in flight, each in its own descriptor slot.
        for i in range(0, len(msgs), 4):
            await Combine(*[cocotb.start_soon(self.send(i + j, m)) for j, m in enumerate(msgs[i:i + 4])])

    async def receiver(self):
        while True:
            info = await self.rd(RXC_INFO)
            if not info >> 31:
                await ClockCycles(self.dut.clk, 15)
                continue
            length, addr = await self.rd(RXC_LEN), await self.rd(RXC_ADDR)
            self.check(await self.wr(RXC_POP, 0) == OKAY, "RXC_POP")
            data = self.ram.read(addr, length) if length else b""
            self.received.append((info >> 24 & 0xF, info >> 16 & 0xFF, info & 0xFFFF, length, data))
            self.ram.write(addr, bytes(self.bufsize))
            self.check(await self.wr(RX_POST_ADDR, addr) == OKAY, "repost")


def params():
    with open(os.environ["NIC_PARAMS"]) as f:
        return json.load(f)


def messages(p, k, rng, count, tag):
    """`count` sends from endpoint k: well formed to random endpoints, and
    one of each malformed kind (their codes from docs/nic.md §13)."""
    out = []
    vcc = p["vcc"]
    for i in range(count):
        cls = rng.randrange(p["s"])
        vcs = [u for u in range(p["m"]) if not vcc or vcc[u] == cls]
        beats = rng.randint(1, p["kmax"])
        payload = bytearray(rng.randrange(256) for _ in range(beats * p["bb"]))
        payload[:4] = (tag + i).to_bytes(4, "little")  # a unique id
        out.append({"id": tag + i, "src": k, "dest": rng.randrange(p["endpoints"]), "cls": cls,
                    "vc": rng.choice(vcs), "vtick": rng.randint(0, 200), "length": len(payload),
                    "payload": bytes(payload), "code": 0})
    bad = [dict(out[0], length=0, code=LEN_ZERO), dict(out[0], length=p["bb"] + 1, code=LEN_NOT_BEATS),
           dict(out[0], dest=p["endpoints"], code=DEST_RANGE)]
    for b in bad:
        b["id"] = None
        out.insert(rng.randrange(len(out)), b)
    return out


@cocotb.test()
async def network_end_to_end(dut):
    p = params()
    seed = int(os.environ.get("NIC_SEED", "1"))
    rng = random.Random(seed)
    n = p["endpoints"]
    per = int(os.environ.get("NET_MESSAGES", "8"))
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    hosts = [Host(dut, p, k, random.Random(rng.random()), dut._log) for k in range(n)]
    await ClockCycles(dut.clk, 5)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    await Combine(*[cocotb.start_soon(h.setup()) for h in hosts])
    for h in hosts:
        cocotb.start_soon(h.receiver())
    sends = [messages(p, k, rng, per, 1000 * (k + 1)) for k in range(n)]
    await Combine(*[cocotb.start_soon(h.sender(s)) for h, s in zip(hosts, sends)])

    # Every well-formed message arrives once at its destination, intact.
    want = {}
    for s in sends:
        for m in s:
            if m["code"] == 0:
                want[m["id"]] = m
    total = len(want)
    for _ in range(2000):
        if sum(len(h.received) for h in hosts) >= total:
            break
        await ClockCycles(dut.clk, 20)
    await ClockCycles(dut.clk, 300)  # anything extra would arrive now
    got = 0
    for h in hosts:
        for st, cls, src, length, data in h.received:
            h.check(st == 0, f"receive completion with status {st}")
            i = int.from_bytes(data[:4], "little")
            h.check(i in want, f"a message (src {src}, class {cls}, {length} bytes, id {i}) that was not sent, or twice")
            m = want.pop(i)
            h.check((m["dest"], m["src"], m["cls"], m["length"]) == (h.k, src, cls, length),
                    f"message {i}: arrived at {h.k} from {src}, class {cls}, {length} bytes; sent {m['src']} -> "
                    f"{m['dest']}, class {m['cls']}, {m['length']} bytes")
            h.check(data == m["payload"], f"message {i}: payload differs")
            got += 1
    assert not want, f"{len(want)} messages never arrived: {sorted(want)}"
    errors = [e for h in hosts for e in h.errors]
    assert not errors, errors
    dut._log.info("network: %d messages between %d endpoints arrived intact; %d malformed sends completed with their codes",
                  got, n, 3 * n)
