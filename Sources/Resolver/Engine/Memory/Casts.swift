/// `value` as a `Target` when its static type `Value` is `Target`, without a
/// dynamic cast; nil otherwise. (`unsafeBitCast` of a value to its own type
/// is the value: the comparison of the metatypes is what makes it safe, and
/// the optimizer folds it where both types are known.)
@inlinable
@inline(__always)
func exactly<Value, Target>(_ value: Value, as type: Target.Type) -> Target? {
    Value.self == Target.self ? unsafeBitCast(value, to: Target.self) : nil
}
