#include "topo/CpuSet.h"

#include "util/Error.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace scalelab {

CpuSet::CpuSet() : bits_(hwloc_bitmap_alloc()) {}
CpuSet::CpuSet(std::initializer_list<int> pus) : CpuSet() {
    for (int pu : pus) add(pu);
}
CpuSet::CpuSet(hwloc_const_bitmap_t bitmap) : bits_(hwloc_bitmap_dup(bitmap)) {}
CpuSet::~CpuSet() {
    if (bits_) hwloc_bitmap_free(bits_);
}
CpuSet::CpuSet(const CpuSet& other) : bits_(hwloc_bitmap_dup(other.bits_)) {}
CpuSet& CpuSet::operator=(const CpuSet& other) {
    if (this != &other) hwloc_bitmap_copy(bits_, other.bits_);
    return *this;
}
CpuSet::CpuSet(CpuSet&& other) noexcept : bits_(std::exchange(other.bits_, hwloc_bitmap_alloc())) {}
CpuSet& CpuSet::operator=(CpuSet&& other) noexcept {
    std::swap(bits_, other.bits_);
    return *this;
}

CpuSet CpuSet::parse(const std::string& list) {
    CpuSet set;
    std::stringstream in(list);
    std::string item;
    auto number = [&](const std::string& s) {
        if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), ::isdigit))
            throw Error("CPU list '" + list + "': '" + item + "' is not a PU number or a range like 0-5");
        return std::atoi(s.c_str());
    };
    while (std::getline(in, item, ',')) {
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (item.empty()) {
            if (list.find_first_not_of(" \t") == std::string::npos) break;  // an empty list
            throw Error("CPU list '" + list + "' has an empty item");
        }
        auto dash = item.find('-');
        int lo = number(item.substr(0, dash));
        int hi = dash == std::string::npos ? lo : number(item.substr(dash + 1));
        if (hi < lo) throw Error("CPU list '" + list + "': range '" + item + "' runs backwards");
        hwloc_bitmap_set_range(set.bits_, static_cast<unsigned>(lo), hi);
    }
    return set;
}

std::string CpuSet::toList() const {
    if (hwloc_bitmap_iszero(bits_)) return "";
    char* text = nullptr;
    hwloc_bitmap_list_asprintf(&text, bits_);
    std::string out = text ? text : "";
    free(text);
    return out;
}

void CpuSet::add(int pu) { hwloc_bitmap_set(bits_, static_cast<unsigned>(pu)); }
bool CpuSet::contains(int pu) const { return hwloc_bitmap_isset(bits_, static_cast<unsigned>(pu)); }
int CpuSet::count() const { return hwloc_bitmap_weight(bits_); }
bool CpuSet::isSubsetOf(const CpuSet& o) const { return hwloc_bitmap_isincluded(bits_, o.bits_); }

std::vector<int> CpuSet::pus() const {
    std::vector<int> out;
    for (int i = hwloc_bitmap_first(bits_); i >= 0; i = hwloc_bitmap_next(bits_, i)) out.push_back(i);
    return out;
}

CpuSet CpuSet::operator|(const CpuSet& o) const {
    CpuSet r;
    hwloc_bitmap_or(r.bits_, bits_, o.bits_);
    return r;
}
CpuSet CpuSet::operator&(const CpuSet& o) const {
    CpuSet r;
    hwloc_bitmap_and(r.bits_, bits_, o.bits_);
    return r;
}
CpuSet CpuSet::operator-(const CpuSet& o) const {
    CpuSet r;
    hwloc_bitmap_andnot(r.bits_, bits_, o.bits_);
    return r;
}
bool CpuSet::operator==(const CpuSet& o) const { return hwloc_bitmap_isequal(bits_, o.bits_); }

} // namespace scalelab
