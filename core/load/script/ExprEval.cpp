// pgbench's evaluateExpr(), evalLazyFunc() and evalStandardFunc(): the same types, coercions,
// NULL propagation, overflow checks and messages.
#include "load/script/Expr.h"
#include "load/script/Random.h"

#include <cmath>
#include <cstring>

namespace scalelab {
namespace {

constexpr int kMaxFunctionArgs = 16;  // pgbench's MAX_FARGS

class Evaluator {
public:
    Evaluator(const Expression& e, EvalContext& ctx) : e_(e), ctx_(ctx) {}

    bool eval(int node, ScriptValue& out) {
        const ExprNode& n = e_.nodes[static_cast<size_t>(node)];
        switch (n.kind) {
        case ExprNode::Kind::Const: out = n.constant; return true;
        case ExprNode::Kind::Var: return ctx_.values.value(n.var, ctx_.names, out, ctx_.error);
        case ExprNode::Kind::Call: break;
        }
        if (n.fn == ExprFn::And || n.fn == ExprFn::Or || n.fn == ExprFn::Case) return lazy(n, out);
        return standard(n, out);
    }

private:
    int arg(const ExprNode& n, int k) const { return e_.args[static_cast<size_t>(n.firstArg + k)]; }

    bool fail(const std::string& why) {
        ctx_.error = why;
        return false;
    }
    bool toBool(const ScriptValue& v, bool& b) {
        if (v.type == ScriptValue::Type::Bool) {
            b = v.b;
            return true;
        }
        return fail(std::string("cannot coerce ") + typeName(v.type) + " to boolean");
    }
    bool toInt(const ScriptValue& v, int64_t& i) {
        if (v.type == ScriptValue::Type::Int) {
            i = v.i;
            return true;
        }
        if (v.type == ScriptValue::Type::Double) {
            double r = std::rint(v.d);
            // FLOAT8_FITS_IN_INT64: [-2^63, 2^63)
            if (std::isnan(r) || !(r >= -9223372036854775808.0 && r < 9223372036854775808.0)) {
                char buf[400];
                snprintf(buf, sizeof buf, "double to int overflow for %f", r);
                return fail(buf);
            }
            i = static_cast<int64_t>(r);
            return true;
        }
        return fail(std::string("cannot coerce ") + typeName(v.type) + " to int");
    }
    bool toDouble(const ScriptValue& v, double& d) {
        if (v.type == ScriptValue::Type::Double) {
            d = v.d;
            return true;
        }
        if (v.type == ScriptValue::Type::Int) {
            d = static_cast<double>(v.i);
            return true;
        }
        return fail(std::string("cannot coerce ") + typeName(v.type) + " to double");
    }

    bool lazy(const ExprNode& n, ScriptValue& out) {
        ScriptValue a;
        if (n.fn == ExprFn::Case) {
            // when/then pairs, then the else branch (NULL when absent)
            int k = 0;
            for (; k + 1 < n.argCount; k += 2) {
                if (!eval(arg(n, k), a)) return false;
                if (valueTruth(a)) return eval(arg(n, k + 1), out);
            }
            return eval(arg(n, k), out);
        }
        if (!eval(arg(n, 0), a)) return false;
        if (a.type == ScriptValue::Type::Null) {
            out = ScriptValue::null();
            return true;
        }
        bool first;
        if (!toBool(a, first)) return false;
        if (n.fn == ExprFn::And ? !first : first) {
            out = ScriptValue::boolean(first);
            return true;
        }
        ScriptValue b;
        if (!eval(arg(n, 1), b)) return false;
        if (b.type == ScriptValue::Type::Null) {
            out = ScriptValue::null();
            return true;
        }
        bool second;
        if (!toBool(b, second)) return false;
        out = ScriptValue::boolean(second);
        return true;
    }

    bool standard(const ExprNode& n, ScriptValue& out) {
        if (n.argCount > kMaxFunctionArgs) return fail("too many function arguments, maximum is " + std::to_string(kMaxFunctionArgs));
        ScriptValue v[kMaxFunctionArgs];
        bool hasNull = false;
        for (int k = 0; k < n.argCount; ++k) {
            if (!eval(arg(n, k), v[k])) return false;
            hasNull |= v[k].type == ScriptValue::Type::Null;
        }
        if (hasNull && n.fn != ExprFn::Is && n.fn != ExprFn::Debug) {
            out = ScriptValue::null();
            return true;
        }
        switch (n.fn) {
        case ExprFn::Add: case ExprFn::Sub: case ExprFn::Mul: case ExprFn::Div: case ExprFn::Mod:
        case ExprFn::Eq: case ExprFn::Ne: case ExprFn::Le: case ExprFn::Lt:
            return arithmetic(n.fn, v[0], v[1], out);
        case ExprFn::BitAnd: case ExprFn::BitOr: case ExprFn::BitXor: case ExprFn::LShift: case ExprFn::RShift: {
            int64_t l, r;
            if (!toInt(v[0], l) || !toInt(v[1], r)) return false;
            // Shifts as the x86 instructions pgbench compiles to: the count modulo 64.
            switch (n.fn) {
            case ExprFn::BitAnd: out = ScriptValue::integer(l & r); break;
            case ExprFn::BitOr: out = ScriptValue::integer(l | r); break;
            case ExprFn::BitXor: out = ScriptValue::integer(l ^ r); break;
            case ExprFn::LShift: out = ScriptValue::integer(static_cast<int64_t>(static_cast<uint64_t>(l) << (r & 63))); break;
            default: out = ScriptValue::integer(l >> (r & 63)); break;
            }
            return true;
        }
        case ExprFn::Not: {
            bool b;
            if (!toBool(v[0], b)) return false;
            out = ScriptValue::boolean(!b);
            return true;
        }
        case ExprFn::Pi: out = ScriptValue::real(M_PI); return true;
        case ExprFn::Abs:
            if (v[0].type == ScriptValue::Type::Int) out = ScriptValue::integer(v[0].i < 0 ? -v[0].i : v[0].i);
            else if (v[0].type == ScriptValue::Type::Double) out = ScriptValue::real(v[0].d < 0 ? -v[0].d : v[0].d);
            else return fail(std::string("cannot coerce ") + typeName(v[0].type) + " to double");
            return true;
        case ExprFn::Debug: debug(v[0]); out = v[0]; return true;
        case ExprFn::Double: case ExprFn::Sqrt: case ExprFn::Ln: case ExprFn::Exp: {
            double d;
            if (!toDouble(v[0], d)) return false;
            if (n.fn == ExprFn::Sqrt) d = std::sqrt(d);
            else if (n.fn == ExprFn::Ln) d = std::log(d);
            else if (n.fn == ExprFn::Exp) d = std::exp(d);
            out = ScriptValue::real(d);
            return true;
        }
        case ExprFn::Int: {
            int64_t i;
            if (!toInt(v[0], i)) return false;
            out = ScriptValue::integer(i);
            return true;
        }
        case ExprFn::Least: case ExprFn::Greatest: return extremum(n, v, out);
        case ExprFn::Random: case ExprFn::RandomExponential: case ExprFn::RandomGaussian: case ExprFn::RandomZipfian:
            return random(n.fn, v, out);
        case ExprFn::Pow: {
            double a, b;
            if (!toDouble(v[0], a) || !toDouble(v[1], b)) return false;
            out = ScriptValue::real(std::pow(a, b));
            return true;
        }
        case ExprFn::Is: {
            // pgbench's permissive IS: the right side is NULL, TRUE or FALSE (the grammar allows
            // nothing else); same type, and for booleans the same truth.
            bool same = v[0].type == v[1].type && (v[0].type != ScriptValue::Type::Bool || v[0].b == v[1].b);
            out = ScriptValue::boolean(same);
            return true;
        }
        case ExprFn::HashMurmur2: case ExprFn::HashFnv1a: {
            int64_t value, seed;
            if (!toInt(v[0], value) || !toInt(v[1], seed)) return false;
            out = ScriptValue::integer(n.fn == ExprFn::HashMurmur2 ? hashMurmur2(value, static_cast<uint64_t>(seed))
                                                                    : hashFnv1a(value, static_cast<uint64_t>(seed)));
            return true;
        }
        case ExprFn::Permute: {
            int64_t value, size, seed;
            if (!toInt(v[0], value) || !toInt(v[1], size) || !toInt(v[2], seed)) return false;
            if (size <= 0) return fail("permute size parameter must be greater than zero");
            out = ScriptValue::integer(permute(value, size, seed));
            return true;
        }
        default: return fail("internal error: unexpected function");
        }
    }

    bool arithmetic(ExprFn fn, const ScriptValue& l, const ScriptValue& r, ScriptValue& out) {
        if ((l.type == ScriptValue::Type::Double || r.type == ScriptValue::Type::Double) && fn != ExprFn::Mod) {
            double a, b;
            if (!toDouble(l, a) || !toDouble(r, b)) return false;
            switch (fn) {
            case ExprFn::Add: out = ScriptValue::real(a + b); break;
            case ExprFn::Sub: out = ScriptValue::real(a - b); break;
            case ExprFn::Mul: out = ScriptValue::real(a * b); break;
            case ExprFn::Div: out = ScriptValue::real(a / b); break;
            case ExprFn::Eq: out = ScriptValue::boolean(a == b); break;
            case ExprFn::Ne: out = ScriptValue::boolean(a != b); break;
            case ExprFn::Le: out = ScriptValue::boolean(a <= b); break;
            default: out = ScriptValue::boolean(a < b); break;
            }
            return true;
        }
        int64_t a, b, res;
        if (!toInt(l, a) || !toInt(r, b)) return false;
        switch (fn) {
        case ExprFn::Add:
            if (__builtin_add_overflow(a, b, &res)) return fail("bigint add out of range");
            out = ScriptValue::integer(res);
            return true;
        case ExprFn::Sub:
            if (__builtin_sub_overflow(a, b, &res)) return fail("bigint sub out of range");
            out = ScriptValue::integer(res);
            return true;
        case ExprFn::Mul:
            if (__builtin_mul_overflow(a, b, &res)) return fail("bigint mul out of range");
            out = ScriptValue::integer(res);
            return true;
        case ExprFn::Eq: out = ScriptValue::boolean(a == b); return true;
        case ExprFn::Ne: out = ScriptValue::boolean(a != b); return true;
        case ExprFn::Le: out = ScriptValue::boolean(a <= b); return true;
        case ExprFn::Lt: out = ScriptValue::boolean(a < b); return true;
        default: break;
        }
        if (b == 0) return fail("division by zero");
        if (b == -1) {
            if (fn == ExprFn::Div) {
                if (a == INT64_MIN) return fail("bigint div out of range");
                out = ScriptValue::integer(-a);
            } else {
                out = ScriptValue::integer(0);
            }
            return true;
        }
        out = ScriptValue::integer(fn == ExprFn::Div ? a / b : a % b);
        return true;
    }

    bool extremum(const ExprNode& n, const ScriptValue* v, ScriptValue& out) {
        bool least = n.fn == ExprFn::Least;
        bool anyDouble = false;
        for (int k = 0; k < n.argCount; ++k) anyDouble |= v[k].type == ScriptValue::Type::Double;
        if (anyDouble) {
            double best;
            if (!toDouble(v[0], best)) return false;
            for (int k = 1; k < n.argCount; ++k) {
                double d;
                if (!toDouble(v[k], d)) return false;
                best = least ? std::min(best, d) : std::max(best, d);
            }
            out = ScriptValue::real(best);
        } else {
            int64_t best;
            if (!toInt(v[0], best)) return false;
            for (int k = 1; k < n.argCount; ++k) {
                int64_t i;
                if (!toInt(v[k], i)) return false;
                best = least ? std::min(best, i) : std::max(best, i);
            }
            out = ScriptValue::integer(best);
        }
        return true;
    }

    bool random(ExprFn fn, const ScriptValue* v, ScriptValue& out) {
        int64_t lo, hi, delta;
        if (!toInt(v[0], lo) || !toInt(v[1], hi)) return false;
        if (lo > hi) return fail("empty range given to random");
        if (__builtin_sub_overflow(hi, lo, &delta) || __builtin_add_overflow(delta, 1, &delta))
            return fail("random range is too large");
        if (fn == ExprFn::Random) {
            out = ScriptValue::integer(ctx_.rng.between(lo, hi));
            return true;
        }
        double p;
        if (!toDouble(v[2], p)) return false;
        char buf[200];
        if (fn == ExprFn::RandomGaussian) {
            // NaN and infinity are refused too: pgbench computes with them (undefined behaviour
            // in its cast to an integer); here they are a clear error.
            if (!(p >= 2.0) || std::isinf(p)) {
                snprintf(buf, sizeof buf, "gaussian parameter must be at least %f (not %f)", 2.0, p);
                return fail(buf);
            }
            out = ScriptValue::integer(ctx_.rng.gaussian(lo, hi, p));
        } else if (fn == ExprFn::RandomZipfian) {
            if (!(p >= 1.001 && p <= 1000.0)) {  // NaN too: pgbench would loop forever
                snprintf(buf, sizeof buf, "zipfian parameter must be in range [%.3f, %.0f] (not %f)", 1.001, 1000.0, p);
                return fail(buf);
            }
            out = ScriptValue::integer(ctx_.rng.zipfian(lo, hi, p));
        } else {
            if (!(p > 0.0)) {  // NaN too
                snprintf(buf, sizeof buf, "exponential parameter must be greater than zero (not %f)", p);
                return fail(buf);
            }
            out = ScriptValue::integer(ctx_.rng.exponential(lo, hi, p));
        }
        return true;
    }

    void debug(const ScriptValue& v) {
        if (!ctx_.debugOut) return;
        char buf[64];
        const char* type = v.type == ScriptValue::Type::Bool ? "boolean " : v.type == ScriptValue::Type::Int ? "int "
                           : v.type == ScriptValue::Type::Double ? "double " : "";
        const char* text = v.type == ScriptValue::Type::Null ? "null"
                           : v.type == ScriptValue::Type::Bool ? (v.b ? "true" : "false")
                                                               : formatValue(v, buf, sizeof buf);
        fprintf(ctx_.debugOut, "debug(script=%d,command=%d): %s%s\n", ctx_.script, ctx_.command + 1, type, text);
    }

    const Expression& e_;
    EvalContext& ctx_;
};

} // namespace

bool valueTruth(const ScriptValue& v) {
    switch (v.type) {
    case ScriptValue::Type::Bool: return v.b;
    case ScriptValue::Type::Int: return v.i != 0;
    case ScriptValue::Type::Double: return v.d != 0.0;
    default: return false;
    }
}

bool evaluate(const Expression& e, EvalContext& ctx, ScriptValue& out) {
    ctx.error.clear();
    return Evaluator(e, ctx).eval(e.root, out);
}

} // namespace scalelab
