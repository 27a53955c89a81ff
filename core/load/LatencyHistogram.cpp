#include "load/LatencyHistogram.h"

#include "util/Error.h"

#include <algorithm>
#include <cmath>

namespace scalelab {
namespace histogram {

size_t bucketIndex(uint64_t ns) {
    if (ns < kSubBuckets) return static_cast<size_t>(ns);
    int top = 63 - __builtin_clzll(ns);
    if (top > kTopBit) return kBuckets - 1;
    int shift = top - kSubBucketBits;
    return static_cast<size_t>(shift) * kSubBuckets + static_cast<size_t>(ns >> shift);
}

uint64_t bucketLow(size_t index) {
    if (index < 2 * kSubBuckets) return index;
    size_t shift = index / kSubBuckets - 1;
    uint64_t sub = index % kSubBuckets + kSubBuckets;
    return sub << shift;
}

uint64_t bucketWidth(size_t index) {
    if (index < 2 * kSubBuckets) return 1;
    return uint64_t{1} << (index / kSubBuckets - 1);
}

} // namespace histogram

void LatencyHistogram::record(uint64_t ns) {
    ++counts_[histogram::bucketIndex(ns)];
    ++count_;
    sum_ += ns;
    sumSquares_ += static_cast<double>(ns) * static_cast<double>(ns);
    min_ = std::min(min_, ns);
    max_ = std::max(max_, ns);
}

void LatencyHistogram::merge(const LatencyHistogram& o) {
    for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
    count_ += o.count_;
    sum_ += o.sum_;
    sumSquares_ += o.sumSquares_;
    min_ = std::min(min_, o.min_);
    max_ = std::max(max_, o.max_);
}

LatencyHistogram LatencyHistogram::since(const LatencyHistogram& earlier) const {
    LatencyHistogram d = *this;
    for (size_t i = 0; i < counts_.size(); ++i) d.counts_[i] -= std::min(d.counts_[i], earlier.counts_[i]);
    d.count_ -= std::min(d.count_, earlier.count_);
    d.sum_ -= std::min(d.sum_, earlier.sum_);
    d.sumSquares_ = std::max(0.0, d.sumSquares_ - earlier.sumSquares_);
    // The interval's own min and max: the edges of its lowest and highest non-empty buckets,
    // tightened by the cumulative extremes (exact below 128 ns, within 0.4% above), never the
    // run-so-far values of an earlier interval.
    d.min_ = UINT64_MAX;
    d.max_ = 0;
    for (size_t i = 0; i < d.counts_.size(); ++i) {
        if (d.counts_[i] == 0) continue;
        if (d.min_ == UINT64_MAX) d.min_ = std::max(histogram::bucketLow(i), min_);
        d.max_ = std::min(histogram::bucketLow(i) + histogram::bucketWidth(i) - 1, max_);
    }
    return d;
}

double LatencyHistogram::meanNs() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0; }

double LatencyHistogram::stddevNs() const {
    if (count_ < 2) return 0;
    double n = static_cast<double>(count_);
    double mean = meanNs();
    double var = (sumSquares_ - n * mean * mean) / (n - 1);
    return var > 0 ? std::sqrt(var) : 0;
}

uint64_t LatencyHistogram::percentileNs(double q) const {
    if (count_ == 0) return 0;
    uint64_t rank = static_cast<uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_)));
    rank = std::max<uint64_t>(rank, 1);
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
        seen += counts_[i];
        if (seen >= rank) {
            uint64_t mid = histogram::bucketLow(i) + histogram::bucketWidth(i) / 2;
            return std::clamp(mid, min_, max_);
        }
    }
    return max_;
}

LatencySummary LatencyHistogram::summary() const {
    auto ms = [](double ns) { return ns / 1e6; };
    LatencySummary s;
    s.count = count_;
    if (count_ == 0) return s;
    s.meanMs = ms(meanNs());
    s.stddevMs = ms(stddevNs());
    s.minMs = ms(static_cast<double>(minNs()));
    s.maxMs = ms(static_cast<double>(max_));
    s.p50Ms = ms(static_cast<double>(percentileNs(0.50)));
    s.p90Ms = ms(static_cast<double>(percentileNs(0.90)));
    s.p95Ms = ms(static_cast<double>(percentileNs(0.95)));
    s.p99Ms = ms(static_cast<double>(percentileNs(0.99)));
    s.p999Ms = ms(static_cast<double>(percentileNs(0.999)));
    return s;
}

LatencyHistogram LiveLatencyHistogram::snapshot() const {
    LatencyHistogram h;
    // One consistent snapshot: the count is the buckets' total, so percentiles and the count
    // agree even when a record lands while the buckets are read.
    h.count_ = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
        h.counts_[i] = counts_[i].load(std::memory_order_relaxed);
        h.count_ += h.counts_[i];
    }
    h.sum_ = sum_.load(std::memory_order_relaxed);
    h.sumSquares_ = sumSquares_.load(std::memory_order_relaxed);
    h.min_ = min_.load(std::memory_order_relaxed);
    h.max_ = max_.load(std::memory_order_relaxed);
    return h;
}

HistogramData LatencyHistogram::data() const {
    HistogramData d;
    d.count = count_;
    d.sumNs = sum_;
    d.sumSquares = sumSquares_;
    d.minNs = minNs();
    d.maxNs = max_;
    for (size_t i = 0; i < counts_.size(); ++i)
        if (counts_[i]) d.buckets.emplace_back(static_cast<uint32_t>(i), counts_[i]);
    return d;
}

LatencyHistogram LatencyHistogram::fromData(const HistogramData& d) {
    LatencyHistogram h;
    uint64_t total = 0;
    for (const auto& [index, n] : d.buckets) {
        if (index >= histogram::kBuckets)
            throw Error("latency histogram: bucket " + std::to_string(index) + " is out of range (0.." +
                        std::to_string(histogram::kBuckets - 1) + ")");
        h.counts_[index] += n;
        total += n;
    }
    if (total != d.count)
        throw Error("latency histogram: its buckets hold " + std::to_string(total) + " values, its count says " +
                    std::to_string(d.count));
    h.count_ = d.count;
    h.sum_ = d.sumNs;
    h.sumSquares_ = d.sumSquares;
    if (d.count) {
        h.min_ = d.minNs;
        h.max_ = d.maxNs;
    }
    return h;
}

} // namespace scalelab
