// swift-format-ignore-file
// The seed pattern's usage code, copied unchanged from shared/seed/seed-injection.swift.txt:
// the key, `test()`, `TestDataStructure`, the three classes, and the `Self[...]` accessor.
// Only the seed's implementation half is left out: the Injection library replaces it.
// This target builds in the Swift 5 language mode the seed was written for.
import Injection

// MARK: Demontration of Usage of Injection system
// 1. First step: make the key object, the current value type is the one you are trying to add to injection system.
private struct BaseClassKey: InjectionKey {
    static var currentValue: BaseClass = RealSubClass()
}

// 2. How to inject the currect value
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
