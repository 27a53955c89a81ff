#pragma once
// A set of PUs (logical CPUs, by operating-system index) over an hwloc bitmap, with the
// list syntax of Linux and hwloc ("0-5,12-17") in and out.
#include <hwloc.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace scalelab {

class CpuSet {
public:
    CpuSet();
    CpuSet(std::initializer_list<int> pus);
    explicit CpuSet(hwloc_const_bitmap_t bitmap);
    ~CpuSet();
    CpuSet(const CpuSet& other);
    CpuSet& operator=(const CpuSet& other);
    CpuSet(CpuSet&& other) noexcept;
    CpuSet& operator=(CpuSet&& other) noexcept;

    // "0-5,12-17", "3", "" (empty). Throws Error naming the item that is not a PU or range.
    static CpuSet parse(const std::string& list);
    std::string toList() const;  // canonical: ascending, ranges merged; "" when empty

    void add(int pu);
    bool contains(int pu) const;
    int count() const;
    bool empty() const { return count() == 0; }
    std::vector<int> pus() const;
    bool isSubsetOf(const CpuSet& other) const;

    CpuSet operator|(const CpuSet& o) const;
    CpuSet operator&(const CpuSet& o) const;
    CpuSet operator-(const CpuSet& o) const;
    bool operator==(const CpuSet& o) const;
    bool operator!=(const CpuSet& o) const { return !(*this == o); }

    hwloc_const_bitmap_t bitmap() const { return bits_; }

private:
    hwloc_bitmap_t bits_;
};

} // namespace scalelab
