import Injection

/// The key of the dependency the read cases measure.
struct ServiceKey: InjectionKey {
  static let currentValue: any Service = Services.live
}

/// The key of the value-type dependency the scaling cases also read.
struct ValueServiceKey: InjectionKey {
  static let currentValue: any Service = ValueService(id: 4)
}

/// A second key, for the second override of the per-request simulation.
struct SecondServiceKey: InjectionKey {
  static let currentValue: any Service = Services.live
}

/// A third key, for the third override of the request cases.
struct ThirdServiceKey: InjectionKey {
  static let currentValue: any Service = Services.live
}

/// A key that only ever has a global value; see the global-override case.
struct GlobalServiceKey: InjectionKey {
  static let currentValue: any Service = Services.live
}

/// A value-type dependency that only ever has a global value; see the global scaling case.
struct GlobalValueServiceKey: InjectionKey {
  static let currentValue: any Service = ValueService(id: 5)
}

extension InjectedValues {
  var service: any Service {
    get { self[ServiceKey.self] }
    set { self[ServiceKey.self] = newValue }
  }

  /// `service`, through a seed-style accessor: its setter writes through the update frame.
  var seedStyleService: any Service {
    get { Self[ServiceKey.self] }
    set { Self[ServiceKey.self] = newValue }
  }

  var valueService: any Service {
    get { self[ValueServiceKey.self] }
    set { self[ValueServiceKey.self] = newValue }
  }

  var secondService: any Service {
    get { self[SecondServiceKey.self] }
    set { self[SecondServiceKey.self] = newValue }
  }

  var thirdService: any Service {
    get { self[ThirdServiceKey.self] }
    set { self[ThirdServiceKey.self] = newValue }
  }

  var globalService: any Service {
    get { self[GlobalServiceKey.self] }
    set { self[GlobalServiceKey.self] = newValue }
  }

  var globalValueService: any Service {
    get { self[GlobalValueServiceKey.self] }
    set { self[GlobalValueServiceKey.self] = newValue }
  }
}
