"""cocotb test of the route-table port of a programmable network with a
NIC at every endpoint (`cfg_s_axil_*` of `<name>_system`,
docs/integration.md "The route-table port of a system top"): a
cocotbext-axi AxiLiteMaster rewrites the tables of the 2x2 mesh of
experiments/nic_mesh2x2.toml (routing = "programmable") with random pauses
on AW, W (so the two arrive skewed, in either order) and B (BREADY
backpressure), every write of a batch issued at once; then the endpoints'
hosts (test_network.Host) send messages and the test checks that they
follow the new tables.

The new tables, derived by hand from the register map and the mesh's
wiring (docs/integration.md: endpoint k at router k = x + 2y, port 0;
port 1 = +x, 2 = -x, 3 = +y, 4 = -y): destination codes 1 and 2 trade
places, each still routed X first, so a message sent to endpoint 1 must
arrive at endpoint 2 and one sent to 2 at 1; 0 and 3 are unchanged.
  router 0 (0,0): code 1 -> +y (3), code 2 -> +x (1)
  router 1 (1,0): code 1 -> -x (2), code 2 -> local (0)
  router 2 (0,1): code 1 -> local (0), code 2 -> +x (1)
  router 3 (1,1): code 1 -> -x (2), code 2 -> -y (4)
Writes the routers cannot take answer SLVERR and change nothing: router 4
(of 4), code 4 (DW = 2), port 5 (of 5), VC mask bit 4 (of 4 VCs), WSTRB
not all ones. The read-back registers: ID 0x52544301, INFO
{M=4, PW=3, DW=2, R=4} = 0x04030204, WRITES = 8, LAST_ROUTER / LAST of
the last accepted write.
"""
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Combine, with_timeout
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from test_network import Host, OKAY, SLVERR, messages, params

ID, INFO, LAST, LAST_ROUTER, WRITES = 0x000, 0x004, 0x008, 0x00C, 0x010
ALL_VCS = 0xF
# (router, code, port) of the new routes.
NEW_ROUTES = [(0, 1, 3), (0, 2, 1), (1, 1, 2), (1, 2, 0), (2, 1, 0), (2, 2, 1), (3, 1, 2), (3, 2, 4)]
REROUTED = {1: 2, 2: 1}


def entry(r):
    return 0x100 + 4 * r


def word(code, port, mask=ALL_VCS):
    return mask << 16 | port << 8 | code


@cocotb.test()
async def reroute_through_the_table_port(dut):
    p = params()
    seed = int(os.environ.get("NIC_SEED", "1"))
    rng = random.Random(seed)
    n = p["endpoints"]
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "cfg_s_axil"), dut.clk, dut.rst)

    def pauses(prob):
        while True:
            yield rng.random() < prob

    axil.write_if.aw_channel.set_pause_generator(pauses(0.5))
    axil.write_if.w_channel.set_pause_generator(pauses(0.5))
    axil.write_if.b_channel.set_pause_generator(pauses(0.6))
    axil.read_if.r_channel.set_pause_generator(pauses(0.5))
    hosts = [Host(dut, p, k, random.Random(rng.random()), dut._log) for k in range(n)]
    await ClockCycles(dut.clk, 5)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)

    async def wr(addr, data, lanes=4):
        # cocotbext-axi derives WSTRB from the length: 3 bytes at an aligned
        # address are WSTRB = 0b0111.
        return (await axil.write(addr, data.to_bytes(4, "little")[:lanes])).resp

    async def rd(addr):
        r = await axil.read(addr, 4)
        return r.resp, int.from_bytes(r.data, "little")

    async def batch(writes):
        tasks = [cocotb.start_soon(wr(*w)) for w in writes]
        await with_timeout(Combine(*tasks), 100, "us")
        return [t.result() for t in tasks]

    assert await rd(ID) == (OKAY, 0x52544301), "ID"
    assert await rd(INFO) == (OKAY, 0x04030204), "INFO"
    assert (await rd(0x014))[0] == SLVERR, "a read of no register answers SLVERR"
    bad = [(entry(4), word(1, 0)), (entry(0), word(4, 0)), (entry(1), word(1, 5)),
           (entry(2), word(1, 0, 0x1F)), (entry(3), word(1, 0), 3), (WRITES, 0)]
    resps = await batch(bad)
    assert resps == [SLVERR] * len(bad), f"writes the routers cannot take answered {resps}"
    assert await rd(WRITES) == (OKAY, 0), "a refused write counted"
    order = NEW_ROUTES[:]
    rng.shuffle(order)
    resps = await batch([(entry(r), word(c, port)) for r, c, port in order])
    assert resps == [OKAY] * len(order), f"table writes answered {resps}"
    assert await rd(WRITES) == (OKAY, len(order)), "WRITES"
    r, c, port = order[-1]
    assert await rd(LAST_ROUTER) == (OKAY, r), "LAST_ROUTER"
    assert await rd(LAST) == (OKAY, word(c, port)), "LAST"

    await Combine(*[cocotb.start_soon(h.setup()) for h in hosts])
    for h in hosts:
        cocotb.start_soon(h.receiver())
    per = int(os.environ.get("NET_MESSAGES", "4"))
    sends = [[m for m in messages(p, k, rng, per, 1000 * (k + 1)) if m["code"] == 0] for k in range(n)]
    # Bounded: a table written to the wrong router can misroute or block
    # the traffic, and that must fail the test, not hang it.
    await with_timeout(Combine(*[cocotb.start_soon(h.sender(s)) for h, s in zip(hosts, sends)]),
                       400, "us")
    want = {m["id"]: m for s in sends for m in s}
    total = len(want)
    for _ in range(2000):
        if sum(len(h.received) for h in hosts) >= total:
            break
        await ClockCycles(dut.clk, 20)
    await ClockCycles(dut.clk, 300)
    moved = 0
    for h in hosts:
        for st, cls, src, length, data in h.received:
            i = int.from_bytes(data[:4], "little")
            assert st == 0 and i in want, f"endpoint {h.k}: status {st}, id {i} not sent or twice"
            m = want.pop(i)
            where = REROUTED.get(m["dest"], m["dest"])
            assert (where, m["src"], m["length"]) == (h.k, src, length), \
                f"message {i} {m['src']} -> code {m['dest']} arrived at {h.k}, expected at {where}"
            assert data == m["payload"], f"message {i}: payload differs"
            moved += m["dest"] in REROUTED
    assert not want, f"{len(want)} messages never arrived: {sorted(want)}"
    errors = [e for h in hosts for e in h.errors]
    assert not errors, errors
    assert moved > 0, "no message was sent to a rerouted code"
    dut._log.info("reroute: %d messages, %d of them to codes 1 and 2, arrived where the new tables lead",
                  total, moved)
