// Each record of results.json describes its fields once, as a function that names every member with its
// JSON key:
//
//   template <class V> void Fields(V& v, json_fields::Record<Estimates> auto& e) {
//     DBXB_JSON_FIELDS(v, e, mean, median, std_dev, median_abs_dev);  // v("mean", e.mean); ...
//     v("slope", e.slope, json_fields::kMayBeAbsent);                   // a field with flags
//   }
//
// Writer visits a const record and builds its object; Reader visits a record to fill and reads its
// members by the rules of records/json_fields.h. A field is one line there: the writer writes it, the
// reader reads it, both in that order. A member's type picks how it is written and read (strings,
// integers, doubles, bools, KeyValues, vectors, optionals, and records that have a Fields of their
// own); FieldFlags say what else a field is (added later, written only when set, a ratio).
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <concepts>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/status.h"
#include "records/json_fields.h"

/// `v("name", r.name);` for each member name given, in order: the fields of record `r` whose JSON key
/// is the member's name and that have no FieldFlags, e.g. DBXB_JSON_FIELDS(v, i, point, lower, upper).
#define DBXB_JSON_FIELDS(v, r, ...) __VA_OPT__(DBXB_JSON_RESCAN(DBXB_JSON_FIELD_EACH(v, r, __VA_ARGS__)))
#define DBXB_JSON_FIELD_EACH(v, r, name, ...) \
  v(#name, r.name);                           \
  __VA_OPT__(DBXB_JSON_FIELD_AGAIN DBXB_JSON_PARENS(v, r, __VA_ARGS__))
#define DBXB_JSON_FIELD_AGAIN() DBXB_JSON_FIELD_EACH
#define DBXB_JSON_PARENS ()
/// The Fields of a record all of whose fields are plain ones, e.g.
/// DBXB_JSON_RECORD(Interval, point, lower, upper, std_error); in the record's namespace.
#define DBXB_JSON_RECORD(Type, ...)                              \
  template <class V>                                             \
  void Fields(V& v, ::dbxb::json_fields::Record<Type> auto& r) { \
    DBXB_JSON_FIELDS(v, r, __VA_ARGS__);                         \
  }
// Each member takes one more scan of the expansion: 4 x 4 x 4 of them allow 64 names in one list.
#define DBXB_JSON_RESCAN(...) \
  DBXB_JSON_RESCAN16(DBXB_JSON_RESCAN16(DBXB_JSON_RESCAN16(DBXB_JSON_RESCAN16(__VA_ARGS__))))
#define DBXB_JSON_RESCAN16(...) DBXB_JSON_RESCAN4(DBXB_JSON_RESCAN4(DBXB_JSON_RESCAN4(DBXB_JSON_RESCAN4(__VA_ARGS__))))
#define DBXB_JSON_RESCAN4(...) DBXB_JSON_RESCAN1(DBXB_JSON_RESCAN1(DBXB_JSON_RESCAN1(DBXB_JSON_RESCAN1(__VA_ARGS__))))
#define DBXB_JSON_RESCAN1(...) __VA_ARGS__

namespace dbxb::json_fields {

/// `T` is the record `R` itself or a const one: the parameter type of a Fields function, which serves
/// Writer (const records) and Reader alike.
template <class T, class R>
concept Record = std::same_as<std::remove_const_t<T>, R>;

/// What a field is besides its type (a bit set; a plain field is kRequired).
enum FieldFlags : unsigned {
  kRequired = 0,
  /// Added after the first files were written: absent reads as the record's default.
  kMayBeAbsent = 1,
  /// Written only when set (an optional with a value, a true bool, a non-empty vector); absent reads as
  /// unset, and an optional's null too.
  kOmitIfEmpty = 2 | kMayBeAbsent,
  /// A double that is not finite, or an absent optional one, is written as null; null reads back as NaN
  /// (a double) or unset (an optional).
  kNullUnlessFinite = 4,
};

/// How a writer puts a double JSON cannot hold (NaN, infinities).
enum class NonFinite {
  kString,  ///< "NaN", "Infinity", "-Infinity" (Number), which the readers read back
  kZero,    ///< 0: for figures finite by construction (a capacity search's; a failed step's are 0)
};

/// True for the records whose "not an object" message is "expected object or null, got <JSON type
/// name>" (the wording of their first reader), specialised beside their Fields; others say TypeError's.
template <class R>
inline constexpr bool kSaysObjectOrNull = false;

template <class T>
inline constexpr bool kIsOptional = false;
template <class T>
inline constexpr bool kIsOptional<std::optional<T>> = true;
template <class T>
inline constexpr bool kIsVector = false;
template <class T>
inline constexpr bool kIsVector<std::vector<T>> = true;

class Writer;
class Reader;

/// A record with a Fields function (found by argument-dependent lookup beside the record's type).
template <class R>
concept Described = requires(Writer& w, const R& r) {
  Fields(w, r);
};

/// Builds one JSON object, member by member in the order visited.
class Writer {
 public:
  static constexpr bool kReading = false;

  explicit Writer(NonFinite non_finite = NonFinite::kString) : non_finite_(non_finite) {}

  /// Writes member `key` (unless kOmitIfEmpty and `value` is empty).
  template <class T>
  void operator()(const char* key, const T& value, unsigned flags = kRequired) {
    if ((flags & kOmitIfEmpty) == kOmitIfEmpty && IsEmpty(value)) return;
    obj_[key] = (flags & kNullUnlessFinite) != 0 ? NullUnlessFinite(value) : Value(value);
  }
  /// Member `key`, an object whose members `fields(Writer&)` writes.
  template <class F>
  void Object(const char* key, F&& fields) {
    Writer w(non_finite_);
    fields(w);
    obj_[key] = std::move(w.obj_);
  }
  /// Fields written only under a condition: whether to write them (`written`). Reader: whether the
  /// document has any of `keys`.
  bool Present(bool written, std::initializer_list<std::string_view> /*keys*/) const { return written; }
  /// Reader only: a member read ahead of its place because a condition of the list needs it.
  template <class T>
  void ReadFirst(const char* /*key*/, const T& /*value*/) {}
  /// Reader only: a consistency check on what was read.
  void Check(bool /*ok*/, const char* /*key*/, std::string_view /*what*/) {}

  /// `v` as JSON, by its type.
  template <class T>
  Json Value(const T& v) const;
  /// The object written so far.
  Json Take() { return std::move(obj_); }

 private:
  // The flags apply to the types they name; on others they have no effect.
  template <class T>
  static bool IsEmpty(const T& v) {
    if constexpr (std::is_same_v<T, bool>)
      return !v;
    else if constexpr (kIsOptional<T>)
      return !v.has_value();
    else if constexpr (requires { v.empty(); })
      return v.empty();
    else
      return false;
  }
  template <class T>
  Json NullUnlessFinite(const T& v) const {
    if constexpr (std::is_same_v<T, double>)
      return std::isfinite(v) ? Json(v) : Json(nullptr);
    else if constexpr (std::is_same_v<T, std::optional<double>>)
      return v && std::isfinite(*v) ? Json(*v) : Json(nullptr);
    else
      return Value(v);
  }

  NonFinite non_finite_;
  Json obj_ = Json::object();
};

/// Reads the members of one object (at JSON path `path`) into a record. The first error stops it: the
/// later fields are then left as they are, and status() says what was wrong. `obj` must outlive it.
class Reader {
 public:
  static constexpr bool kReading = true;

  Reader(const Json& obj, std::string path) : obj_(obj), path_(std::move(path)) {}

  /// Reads member `key` into `out`: required unless `flags` say otherwise.
  template <class T>
  void operator()(const char* key, T& out, unsigned flags = kRequired) {
    if (!status_.ok()) return;
    const Json* j = nullptr;
    status_ = Find(obj_, path_, key, (flags & kMayBeAbsent) != 0, &j);
    if (status_.ok() && j != nullptr) status_ = ReadField(*j, Member(path_, key), flags, &out);
  }
  /// Member `key`, an object whose members `fields(Reader&)` reads.
  template <class F>
  void Object(const char* key, F&& fields) {
    if (!status_.ok()) return;
    const Json* j = nullptr;
    status_ = GetObject(obj_, path_, key, &j);
    if (!status_.ok()) return;
    Reader r(*j, Member(path_, key));
    fields(r);
    status_ = r.status();
  }
  bool Present(bool /*written*/, std::initializer_list<std::string_view> keys) const {
    for (std::string_view key : keys)
      if (obj_.contains(key)) return true;
    return false;
  }
  template <class T>
  void ReadFirst(const char* key, T& out) {
    (*this)(key, out);
  }
  /// Unless `ok`: InvalidArgument "<path>.<key>: <what>" ("<path>: <what>" when `key` is null).
  void Check(bool ok, const char* key, std::string_view what) {
    if (status_.ok() && !ok)
      status_ = Status::InvalidArgument(fmt::format("{}: {}", key == nullptr ? path_ : Member(path_, key), what));
  }

  const Status& status() const { return status_; }

 private:
  template <class T>
  static Status ReadField(const Json& j, const std::string& path, unsigned flags, T* out);

  const Json& obj_;
  std::string path_;
  Status status_;
};

/// Reads `j` (at `path`) into *out by its type: an optional (null = unset), a vector (a JSON array),
/// a record (an object, read by its Fields). The other types are ReadValue's overloads in
/// records/json_fields.h, or beside their type.
template <class T>
Status ReadValue(const Json& j, const std::string& path, T* out) {
  if constexpr (kIsOptional<T>) {
    if (j.is_null()) {
      out->reset();
      return Status::Ok();
    }
    typename T::value_type v{};
    DBXB_RETURN_IF_ERROR(ReadValue(j, path, &v));
    *out = std::move(v);
  } else if constexpr (kIsVector<T>) {
    if (!j.is_array()) return TypeError(path, "array", j);
    T items;
    for (size_t i = 0; i < j.size(); ++i) {
      typename T::value_type item{};
      DBXB_RETURN_IF_ERROR(ReadValue(j[i], Element(path, i), &item));
      items.push_back(std::move(item));
    }
    *out = std::move(items);
  } else {
    static_assert(Described<T>, "a field's type needs a ReadValue overload or a Fields function");
    if (!j.is_object()) {
      if (kSaysObjectOrNull<T>)
        return Status::InvalidArgument(fmt::format("{}: expected object or null, got {}", path, j.type_name()));
      return TypeError(path, "object", j);
    }
    Reader r(j, path);
    Fields(r, *out);
    return r.status();
  }
  return Status::Ok();
}

template <class T>
Status Reader::ReadField(const Json& j, const std::string& path, unsigned flags, T* out) {
  if constexpr (std::is_same_v<T, double>) {
    if ((flags & kNullUnlessFinite) != 0 && j.is_null()) {
      *out = std::numeric_limits<double>::quiet_NaN();
      return Status::Ok();
    }
  }
  if constexpr (kIsOptional<T>) {
    // Never written as null, so a wrong value is named by the value's type alone ("unsigned integer",
    // not "unsigned integer or null").
    if ((flags & kOmitIfEmpty) == kOmitIfEmpty && !j.is_null()) {
      typename T::value_type v{};
      DBXB_RETURN_IF_ERROR(ReadValue(j, path, &v));
      *out = std::move(v);
      return Status::Ok();
    }
  }
  return ReadValue(j, path, out);
}

template <class T>
Json Writer::Value(const T& v) const {
  if constexpr (std::is_same_v<T, double>) {
    if (non_finite_ == NonFinite::kZero) return std::isfinite(v) ? v : 0.0;
    return Number(v);
  } else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) {
    return v;
  } else if constexpr (kIsOptional<T>) {
    return v ? Value(*v) : Json(nullptr);
  } else if constexpr (std::is_same_v<T, KeyValues>) {
    return StringsToJson(v);
  } else if constexpr (kIsVector<T>) {
    Json items = Json::array();
    for (const auto& item : v) items.push_back(Value(item));
    return items;
  } else if constexpr (std::is_same_v<T, std::pair<double, double>>) {
    return Json::array({Value(v.first), Value(v.second)});
  } else if constexpr (Described<T>) {
    Writer w(non_finite_);
    Fields(w, v);
    return w.Take();
  } else {
    return WriteValue(v);  // an overload beside the type (an enum written as its name)
  }
}

}  // namespace dbxb::json_fields
