/// Plain task-locals: the baselines a dependency read and a scope entry are compared with.
enum RawTaskLocals {
  @TaskLocal static var service: any Service = Services.live
  @TaskLocal static var secondService: any Service = Services.live
  @TaskLocal static var thirdService: any Service = Services.live
  @TaskLocal static var valueService: any Service = ValueServiceKey.currentValue
}
