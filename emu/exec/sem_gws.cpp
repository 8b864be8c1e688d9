// The GDS-only ds_gws_* instructions on a cooperative dispatch's GWS
// resources (gws.hpp has the state machine and its sources).

#include <string>

#include "emu/exec/semantics.hpp"

namespace dppgemm::emu::sem {

namespace {

GwsResource& resource_of(Wave& w, const ExecInst& e, unsigned& id) {
    GlobalWaveSync* gws = w.group->env->gws;
    if (!gws)
        fail(FaultKind::no_gws, std::string(mnemonic(e.inst->op)) +
                                    " outside a cooperative launch: the runtime gives GWS resources only to "
                                    "hipLaunchCooperativeKernel dispatches");
    id = (((w.sreg[sreg_m0] >> 16) & 63) + (e.inst->offset & 63)) % GlobalWaveSync::resource_count;
    return gws->resources[id];
}

// The data of the first active lane ("find_first_valid(vector mask)").
std::int64_t first_lane_value(Wave& w, const ExecInst& e) {
    const std::uint64_t exec = w.exec();
    if (!exec)
        fail(FaultKind::invalid_operand,
             std::string(mnemonic(e.inst->op)) + " with EXEC = 0: the ISA takes its value from the first active lane");
    return vreg(w, e.src[0])[__builtin_ctzll(exec)];
}

void queue(Wave& w, const ExecInst& e, GwsWait what, unsigned id) {
    w.state = WaveState::at_gws;
    w.gws_wait = what;
    w.gws_resource = static_cast<std::uint8_t>(id);
    w.gws_inst = e.index;
}

void observe_release(Wave& w, unsigned id) {
    if (w.group->observer) w.group->observer->gws_release(w, id);
}
void observe_acquire(Wave& w, unsigned id) {
    if (w.group->observer) w.group->observer->gws_acquire(w, id);
}

void gws_init(Wave& w, const ExecInst& e) {
    unsigned id;
    GwsResource& r = resource_of(w, e, id);
    r.counter = first_lane_value(w, e);
    r.flag = false;
}

void gws_barrier(Wave& w, const ExecInst& e) {
    unsigned id;
    GwsResource& r = resource_of(w, e, id);
    const std::int64_t value = first_lane_value(w, e);
    observe_release(w, id);
    w.gws_flag = r.flag;
    if (r.counter <= 0) {
        r.flag = !r.flag;
        r.counter = value;
        observe_acquire(w, id);
        return;
    }
    r.counter -= 1;
    queue(w, e, GwsWait::barrier, id);
}

void gws_sema_v(Wave& w, const ExecInst& e) {
    unsigned id;
    GwsResource& r = resource_of(w, e, id);
    observe_release(w, id);
    r.counter += 1;
}

void gws_sema_br(Wave& w, const ExecInst& e) {
    unsigned id;
    GwsResource& r = resource_of(w, e, id);
    observe_release(w, id);
    r.counter += first_lane_value(w, e);
}

void gws_sema_release_all(Wave& w, const ExecInst& e) {
    unsigned id;
    GwsResource& r = resource_of(w, e, id);
    observe_release(w, id);
    r.counter = r.queued_p;
}

void gws_sema_p(Wave& w, const ExecInst& e) {
    unsigned id;
    GwsResource& r = resource_of(w, e, id);
    if (r.counter > 0) {
        r.counter -= 1;
        observe_acquire(w, id);
        return;
    }
    r.queued_p += 1;
    queue(w, e, GwsWait::semaphore, id);
}

}  // namespace

void register_gws(Table& t) {
    set(t, Op::ds_gws_init, gws_init, InstClass::other);
    set(t, Op::ds_gws_barrier, gws_barrier, InstClass::barrier);
    set(t, Op::ds_gws_sema_v, gws_sema_v, InstClass::other);
    set(t, Op::ds_gws_sema_br, gws_sema_br, InstClass::other);
    set(t, Op::ds_gws_sema_p, gws_sema_p, InstClass::other);
    set(t, Op::ds_gws_sema_release_all, gws_sema_release_all, InstClass::other);
}

}  // namespace dppgemm::emu::sem

namespace dppgemm::emu {

bool gws_try_wake(Wave& w) {
    GwsResource& r = w.group->env->gws->resources[w.gws_resource];
    if (w.gws_wait == GwsWait::barrier) {
        if (r.flag == w.gws_flag) return false;
    } else {
        if (r.counter <= 0) return false;
        r.counter -= 1;
        r.queued_p -= 1;
    }
    w.gws_wait = GwsWait::none;
    w.state = WaveState::running;
    if (w.group->observer) w.group->observer->gws_acquire(w, w.gws_resource);
    return true;
}

}  // namespace dppgemm::emu
