// Graphs: built by stream capture or node by node, instantiated and launched.
// Work runs when it is enqueued here, so a graph is a list of deferred work:
// a node holds what its operation will do when the graph is launched (a
// kernel with its arguments copied at the time the node was made, a copy, a
// memset, a host function, an event record) and the nodes it depends on.
// hipGraphInstantiate orders the nodes (dependencies first, otherwise in the
// order they were added); hipGraphLaunch runs them in that order on the
// stream given.
//
// Capture: between hipStreamBeginCapture and hipStreamEndCapture, kernel
// launches, asynchronous copies and memsets, host functions and event
// records enqueued on the stream become nodes, each depending on the one
// before. Capture follows one stream: work on other streams runs as usual,
// and hipStreamWaitEvent does not join another stream into the capture.
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "guard.hpp"
#include "runtime.hpp"

using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;
using Work = dppgemm::hipemu::Work;

struct hipGraphNode {
    Work work;  // empty for an empty node
    std::vector<hipGraphNode*> dependencies;
};
struct ihipGraph {
    std::vector<std::unique_ptr<hipGraphNode>> nodes;  // in the order they were added
};
struct hipGraphExec {
    std::vector<Work> steps;
};

namespace {

std::mutex graphs_mutex;
std::set<ihipGraph*> graphs;
std::set<hipGraphExec*> execs;
struct Capture {
    ihipGraph* graph;
    hipGraphNode* last = nullptr;
    unsigned long long id;
};
std::map<hipStream_t, Capture> captures;
unsigned long long next_capture_id = 1;

bool live_graph(ihipGraph* g) { return g && graphs.count(g); }

hipGraphNode* add_node(ihipGraph* g, Work work, const hipGraphNode_t* dependencies, size_t count) {
    auto node = std::make_unique<hipGraphNode>();
    node->work = std::move(work);
    for (size_t i = 0; i < count; ++i) node->dependencies.push_back(dependencies[i]);
    g->nodes.push_back(std::move(node));
    return g->nodes.back().get();
}

// The dependencies must be nodes of this graph.
bool nodes_of(ihipGraph* g, const hipGraphNode_t* nodes, size_t count) {
    if (count && !nodes) return false;
    for (size_t i = 0; i < count; ++i)
        if (std::none_of(g->nodes.begin(), g->nodes.end(), [&](const auto& n) { return n.get() == nodes[i]; }))
            return false;
    return true;
}

// Builds a node from one of the hipGraphAdd*Node calls: checks, adds, hands it out.
hipError_t add(hipGraphNode_t* out, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, Work work) {
    std::lock_guard<std::mutex> lock(graphs_mutex);
    if (!out || !live_graph(graph) || !nodes_of(graph, deps, count)) return hipErrorInvalidValue;
    *out = add_node(graph, std::move(work), deps, count);
    return hipSuccess;
}

hipError_t memset_node_work(const hipMemsetParams& p, Work* out) {
    if (!p.dst || (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) || p.width == 0 || p.height == 0)
        return hipErrorInvalidValue;
    if (p.height > 1 && p.pitch < p.width * p.elementSize) return hipErrorInvalidValue;
    *out = [p]() -> hipError_t {
        for (size_t row = 0; row < p.height; ++row) {
            char* at = static_cast<char*>(p.dst) + row * p.pitch;
            if (hipError_t e = Runtime::instance().fill(at, p.value, p.elementSize, p.width); e != hipSuccess) return e;
        }
        return hipSuccess;
    };
    return hipSuccess;
}

}  // namespace

namespace dppgemm::hipemu {

bool is_capturing(hipStream_t stream) {
    std::lock_guard<std::mutex> lock(graphs_mutex);
    return captures.count(stream) != 0;
}

bool capture(hipStream_t stream, Work work) {
    std::lock_guard<std::mutex> lock(graphs_mutex);
    auto it = captures.find(stream);
    if (it == captures.end()) return false;
    Capture& c = it->second;
    hipGraphNode_t previous = c.last;
    c.last = add_node(c.graph, std::move(work), previous ? &previous : nullptr, previous ? 1 : 0);
    return true;
}

}  // namespace dppgemm::hipemu

extern "C" {

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (mode < hipStreamCaptureModeGlobal || mode > hipStreamCaptureModeRelaxed)
            return record(hipErrorInvalidValue);
        // The null stream cannot capture (as in CUDA and ROCm).
        if (stream == nullptr) return record(hipErrorStreamCaptureUnsupported);
        if (hipError_t e = Runtime::instance().check_stream(stream); e != hipSuccess) return record(e);
        std::lock_guard<std::mutex> lock(graphs_mutex);
        if (captures.count(stream)) return record(hipErrorIllegalState);
        auto graph = std::make_unique<ihipGraph>();
        captures[stream] = Capture{graph.get(), nullptr, next_capture_id++};
        graphs.insert(graph.release());
        return hipSuccess;
    });
}
hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* pGraph) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pGraph) return record(hipErrorInvalidValue);
        std::lock_guard<std::mutex> lock(graphs_mutex);
        auto it = captures.find(stream);
        if (it == captures.end()) return record(hipErrorIllegalState);
        *pGraph = it->second.graph;
        captures.erase(it);
        return hipSuccess;
    });
}
hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pCaptureStatus) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_stream(stream); e != hipSuccess) return record(e);
        std::lock_guard<std::mutex> lock(graphs_mutex);
        *pCaptureStatus = captures.count(stream) ? hipStreamCaptureStatusActive : hipStreamCaptureStatusNone;
        return hipSuccess;
    });
}
hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus,
                                   unsigned long long* pId) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pCaptureStatus) return record(hipErrorInvalidValue);
        if (hipError_t e = Runtime::instance().check_stream(stream); e != hipSuccess) return record(e);
        std::lock_guard<std::mutex> lock(graphs_mutex);
        auto it = captures.find(stream);
        *pCaptureStatus = it != captures.end() ? hipStreamCaptureStatusActive : hipStreamCaptureStatusNone;
        if (pId && it != captures.end()) *pId = it->second.id;
        return hipSuccess;
    });
}

hipError_t hipGraphCreate(hipGraph_t* pGraph, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pGraph || flags != 0) return record(hipErrorInvalidValue);
        std::lock_guard<std::mutex> lock(graphs_mutex);
        auto graph = std::make_unique<ihipGraph>();
        *pGraph = graph.get();
        graphs.insert(graph.release());
        return hipSuccess;
    });
}
hipError_t hipGraphDestroy(hipGraph_t graph) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        std::lock_guard<std::mutex> lock(graphs_mutex);
        if (!live_graph(graph)) return record(hipErrorInvalidValue);
        graphs.erase(graph);
        delete graph;
        return hipSuccess;
    });
}

// The kernel's arguments are copied now, as they are when a node is made.
hipError_t hipGraphAddKernelNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                 size_t numDependencies, const hipKernelNodeParams* pNodeParams) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pNodeParams) return record(hipErrorInvalidValue);
        hipFunction_t function = nullptr;
        if (hipError_t e = dppgemm::hipemu::function_of_stub(pNodeParams->func, &function); e != hipSuccess)
            return record(e);
        const hipKernelNodeParams& p = *pNodeParams;
        dppgemm::hipemu::LaunchRequest request{function,
                                               {p.gridDim.x, p.gridDim.y, p.gridDim.z},
                                               {p.blockDim.x, p.blockDim.y, p.blockDim.z},
                                               p.sharedMemBytes,
                                               nullptr,
                                               p.kernelParams,
                                               p.extra};
        Work work;
        if (hipError_t e = Runtime::instance().deferred_launch(request, &work); e != hipSuccess) return record(e);
        return record(add(pGraphNode, graph, pDependencies, numDependencies, std::move(work)));
    });
}
hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                   size_t numDependencies, void* dst, const void* src, size_t count,
                                   hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault) return record(hipErrorInvalidMemcpyDirection);
        Work work = [=]() { return Runtime::instance().copy(dst, src, count, kind); };
        return record(add(pGraphNode, graph, pDependencies, numDependencies, std::move(work)));
    });
}
hipError_t hipGraphAddMemsetNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                 size_t numDependencies, const hipMemsetParams* pMemsetParams) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pMemsetParams) return record(hipErrorInvalidValue);
        Work work;
        if (hipError_t e = memset_node_work(*pMemsetParams, &work); e != hipSuccess) return record(e);
        return record(add(pGraphNode, graph, pDependencies, numDependencies, std::move(work)));
    });
}
hipError_t hipGraphAddHostNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                               size_t numDependencies, const hipHostNodeParams* pNodeParams) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!pNodeParams || !pNodeParams->fn) return record(hipErrorInvalidValue);
        const hipHostNodeParams p = *pNodeParams;
        Work work = [p]() {
            p.fn(p.userData);
            return hipSuccess;
        };
        return record(add(pGraphNode, graph, pDependencies, numDependencies, std::move(work)));
    });
}
hipError_t hipGraphAddEmptyNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                size_t numDependencies) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(add(pGraphNode, graph, pDependencies, numDependencies, Work{}));
    });
}
hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to,
                                   size_t numDependencies) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        std::lock_guard<std::mutex> lock(graphs_mutex);
        if (!live_graph(graph) || !nodes_of(graph, from, numDependencies) || !nodes_of(graph, to, numDependencies))
            return record(hipErrorInvalidValue);
        for (size_t i = 0; i < numDependencies; ++i) to[i]->dependencies.push_back(from[i]);
        return hipSuccess;
    });
}
hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* numNodes) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        std::lock_guard<std::mutex> lock(graphs_mutex);
        if (!live_graph(graph) || !numNodes) return record(hipErrorInvalidValue);
        if (nodes)
            for (size_t i = 0; i < std::min(*numNodes, graph->nodes.size()); ++i) nodes[i] = graph->nodes[i].get();
        else *numNodes = graph->nodes.size();
        return hipSuccess;
    });
}

// Dependencies first, otherwise in the order the nodes were added; a cycle is hipErrorInvalidValue.
hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* pGraphExec, hipGraph_t graph, unsigned long long flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        (void)flags;
        std::lock_guard<std::mutex> lock(graphs_mutex);
        if (!pGraphExec || !live_graph(graph)) return record(hipErrorInvalidValue);
        auto exec = std::make_unique<hipGraphExec>();
        std::set<const hipGraphNode*> done;
        while (done.size() < graph->nodes.size()) {
            bool progressed = false;
            for (const auto& node : graph->nodes) {
                if (done.count(node.get())) continue;
                const bool ready = std::all_of(node->dependencies.begin(), node->dependencies.end(),
                                               [&](const hipGraphNode* d) { return done.count(d) != 0; });
                if (!ready) continue;
                if (node->work) exec->steps.push_back(node->work);
                done.insert(node.get());
                progressed = true;
                break;  // restart: the earliest-added ready node goes next
            }
            if (!progressed) {
                std::fprintf(stderr, "hipemu: hipGraphInstantiate: the graph's dependencies form a cycle\n");
                return record(hipErrorInvalidValue);
            }
        }
        *pGraphExec = exec.get();
        execs.insert(exec.release());
        return hipSuccess;
    });
}
hipError_t hipGraphInstantiate(hipGraphExec_t* pGraphExec, hipGraph_t graph, hipGraphNode_t* pErrorNode,
                               char* pLogBuffer, size_t bufferSize) {
    if (pErrorNode) *pErrorNode = nullptr;
    if (pLogBuffer && bufferSize) pLogBuffer[0] = '\0';
    return hipGraphInstantiateWithFlags(pGraphExec, graph, 0);
}
hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (hipError_t e = Runtime::instance().check_stream(stream); e != hipSuccess) return record(e);
        std::vector<Work> steps;
        {
            std::lock_guard<std::mutex> lock(graphs_mutex);
            if (!graphExec || !execs.count(graphExec)) return record(hipErrorInvalidValue);
            steps = graphExec->steps;
        }
        for (const Work& step : steps)
            if (hipError_t e = step(); e != hipSuccess) return record(e);
        return hipSuccess;
    });
}
hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        std::lock_guard<std::mutex> lock(graphs_mutex);
        if (!graphExec || execs.erase(graphExec) != 1) return record(hipErrorInvalidValue);
        delete graphExec;
        return hipSuccess;
    });
}

}  // extern "C"
