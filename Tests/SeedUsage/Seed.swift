// swift-format-ignore-file
// The usage code of the "seed pattern", unchanged: the key, `test()`, `TestDataStructure`, the
// three classes, and the `Self[...]` accessor. The pattern is the small dependency-injection
// setup that Antoine van der Lee describes in his article on dependency injection in Swift
// (https://www.avanderlee.com/swift/dependency-injection/); its implementation half
// (the protocol, `InjectedValues` and the wrapper) is left out, because the Injection library
// replaces it. This target builds in the Swift 5 language mode the pattern was written for.
//
// The code stays as it was written; only two spelling mistakes in its comments were corrected.
// So it keeps the pattern's one compiler warning, "variable 'dataController' was never mutated":
// `test()` declares `var dataController` and then assigns through the wrapper's setter, which the
// library declares `nonmutating` (as a global write it mutates no instance). Package.swift
// compiles this target with `-suppress-warnings`, so that builds do not print it.
import Injection

// MARK: Demonstration of Usage of Injection system
// 1. First step: make the key object, the current value type is the one you are trying to add to injection system.
private struct BaseClassKey: InjectionKey {
    static var currentValue: BaseClass = RealSubClass()
}

// 2. How to inject the current value
func test() {
    var dataController = TestDataStructure()

    InjectedValues[\.networkProvider] = MockedSubClass()


    dataController.networkProvider = RealSubClass()

    dataController.performDataRequest() // prints: Data requested using the 'NetworkProvider'
}

// 3. How to use the currently injected value
struct TestDataStructure {
    @Injected(\.networkProvider) var networkProvider: BaseClass
    
    func performDataRequest() {
        networkProvider.requestData()
    }
}

class BaseClass {
    func requestData() {
        
    }
}

class RealSubClass: BaseClass {
    override func requestData() {
        print("Data requested using the `NetworkProvider`")
    }
}

class MockedSubClass: BaseClass {
    override func requestData() {
        print("Data requested using the `MockedNetworkProvider`")
    }
}

extension InjectedValues {
    var networkProvider: BaseClass {
        get { Self[BaseClassKey.self] }
        set { Self[BaseClassKey.self] = newValue }
    }
}
