#pragma once
// std::visit with one lambda per alternative: std::visit(Overload{[](int) {...}, [](auto) {...}}, v).

namespace scalelab {

template <class... F>
struct Overload : F... {
    using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

} // namespace scalelab
