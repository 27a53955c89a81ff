#pragma once
// Log-linear latency histogram: exact below 128 ns, then 128 linear buckets per power of two,
// so a bucket is at most 1/128 of its value wide and a reported value (the bucket's middle,
// clamped to the exact min and max) is within 0.4% of the truth from 128 ns to 137 s.
// Larger values land in the last bucket; min, max, count, sum and sum of squares are exact.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace scalelab {

namespace histogram {
constexpr int kSubBucketBits = 7;
constexpr uint64_t kSubBuckets = 1u << kSubBucketBits;     // 128
constexpr int kTopBit = 36;                                 // values up to 2^37 - 1 ns
constexpr size_t kBuckets = (kTopBit - kSubBucketBits) * kSubBuckets + 2 * kSubBuckets;  // 3968

size_t bucketIndex(uint64_t ns);
uint64_t bucketLow(size_t index);    // smallest value in the bucket
uint64_t bucketWidth(size_t index);
} // namespace histogram

struct LatencySummary {
    uint64_t count = 0;
    double meanMs = 0, stddevMs = 0, minMs = 0, maxMs = 0;
    double p50Ms = 0, p90Ms = 0, p95Ms = 0, p99Ms = 0, p999Ms = 0;
};

// A histogram as it travels (a load host's result to the coordinator): the non-empty buckets
// only, and the exact count, sum, sum of squares, min and max. Converting back loses nothing.
struct HistogramData {
    uint64_t count = 0, sumNs = 0, minNs = 0, maxNs = 0;
    double sumSquares = 0;
    std::vector<std::pair<uint32_t, uint64_t>> buckets;  // (bucket index, count), ascending
};

// A value type: snapshots, interval deltas and merged totals.
class LatencyHistogram {
public:
    HistogramData data() const;
    // Throws Error for a bucket index out of range or counts that do not add up to `count`.
    static LatencyHistogram fromData(const HistogramData& data);

    void record(uint64_t ns);
    void merge(const LatencyHistogram& other);
    // this - earlier, for cumulative snapshots of the same source. Min and max are the
    // interval's own, from its lowest and highest non-empty buckets (within 0.4%).
    LatencyHistogram since(const LatencyHistogram& earlier) const;

    uint64_t count() const { return count_; }
    uint64_t minNs() const { return count_ ? min_ : 0; }
    uint64_t maxNs() const { return max_; }
    double meanNs() const;
    double stddevNs() const;           // sample standard deviation (n - 1)
    uint64_t percentileNs(double q) const;  // q in [0, 1]; nearest rank
    LatencySummary summary() const;

    uint64_t bucketCount(size_t i) const { return counts_[i]; }

private:
    friend class LiveLatencyHistogram;
    std::array<uint64_t, histogram::kBuckets> counts_{};
    uint64_t count_ = 0;
    uint64_t sum_ = 0;
    double sumSquares_ = 0;
    uint64_t min_ = UINT64_MAX;
    uint64_t max_ = 0;
};

// The histogram a worker thread records into while a sampler thread reads it. One writer:
// the worker updates with relaxed loads and stores (plain moves on x86, no lock prefix), and
// the reader's snapshot may miss the record in flight, never more.
class LiveLatencyHistogram {
public:
    void record(uint64_t ns) {
        bump(counts_[histogram::bucketIndex(ns)], 1);
        bump(count_, 1);
        bump(sum_, ns);
        double d = static_cast<double>(ns);
        sumSquares_.store(sumSquares_.load(std::memory_order_relaxed) + d * d, std::memory_order_relaxed);
        if (ns < min_.load(std::memory_order_relaxed)) min_.store(ns, std::memory_order_relaxed);
        if (ns > max_.load(std::memory_order_relaxed)) max_.store(ns, std::memory_order_relaxed);
    }
    LatencyHistogram snapshot() const;

private:
    static void bump(std::atomic<uint64_t>& a, uint64_t by) {
        a.store(a.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
    }
    std::array<std::atomic<uint64_t>, histogram::kBuckets> counts_{};
    std::atomic<uint64_t> count_{0}, sum_{0};
    std::atomic<double> sumSquares_{0};
    std::atomic<uint64_t> min_{UINT64_MAX}, max_{0};
};

} // namespace scalelab
