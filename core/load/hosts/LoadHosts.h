#pragma once
// A run spread over several load hosts (docs/load-hosts.md): how the clients and threads are
// shared out, and how the hosts' results become one. Merging is exact: transaction, failure and
// retry counts add up, latency histograms are merged bucket by bucket (the percentiles of the
// whole, not averages of percentiles), and the hosts' samples line up by interval (every host
// starts its clock at the same agreed moment, with the same sampling interval).
#include "load/LoadSpec.h"

#include <string>
#include <vector>

namespace scalelab {

struct HostShare {
    std::string host;       // as the user named it ("bench@client1", or "local")
    int clients = 0;
    int threads = 0;
    int clientIdOffset = 0;  // its first client's number among all hosts' clients
};

// `clients` in contiguous blocks whose sizes differ by at most one, the larger first (as
// pgbench shares clients over threads); threads likewise, at least one per host. Throws Error
// when there are fewer clients than hosts (a host without clients measures nothing).
std::vector<HostShare> shareClients(const std::vector<std::string>& hosts, int clients, int threads);

// The run as one process running every host's clients would report it. Each part must carry
// its histograms (LoadSpec::keepHistograms); throws Error otherwise. The window is the longest
// host's (every host started at the same moment); a failed host makes the run failed, a
// stopped one stopped.
LoadResult mergeHostResults(const std::vector<LoadResult>& parts);

// Interval i of every host that has one, as one sample.
LoadSample mergeHostSamples(const std::vector<const LoadSample*>& samples);

// A load host's clock against this machine's. The hosts start at one wall-clock moment, so a
// host whose clock is ahead would start early: each reading is one exchange (this machine's
// clock when asking and when the answer came, the host's clock in between), and, as NTP does,
// the reading with the shortest round trip counts, the host's time taken as halfway.
struct ClockReading {
    int64_t sentNs = 0, hostNs = 0, receivedNs = 0;
};
struct ClockOffset {
    int64_t offsetNs = 0;       // the host's clock minus this machine's
    int64_t uncertaintyNs = 0;  // half that round trip: the true offset is within +- this
};
// Throws Error for no readings.
ClockOffset clockOffset(const std::vector<ClockReading>& readings);

} // namespace scalelab
