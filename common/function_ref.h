// FunctionRef: a non-owning, non-allocating reference to a callable, for visitors on hot paths
// (a scan calls its visitor once per row; std::function's type erasure may allocate and costs more).
#pragma once

#include <type_traits>
#include <utility>

namespace dbxb {

template <typename Fn>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  /// The callable must outlive this reference.
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT: implicit by design
      : obj_(const_cast<void*>(static_cast<const void*>(&f))), call_([](void* obj, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

  /// What operator() calls, as a C-style callback and its context: function()(object(), args...)
  /// calls the callable. For an API that takes those two (one indirect call per row, not two).
  R (*function() const)(void*, Args...) { return call_; }
  void* object() const { return obj_; }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

}  // namespace dbxb
