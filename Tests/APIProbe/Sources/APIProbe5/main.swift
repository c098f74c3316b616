// The APIProbe in Swift 5 language mode: EveryDeclaration.swift (a link to
// Shared/EveryDeclaration.swift) uses every public declaration of the
// original; this runs it and checks the few results it collects.
import Foundation

let failures = useEveryDeclaration() + useBeyondResolver() + useContexts() + (await useKeys())
for failure in failures {
    print("APIProbe5: FAILED \(failure)")
}
if !failures.isEmpty {
    exit(1)
}
print("APIProbe OK (Swift 5 language mode)")
