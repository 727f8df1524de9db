import CVips

/// A value for one argument of a libvips operation.
public enum VipsArgument {
    /// Whether it is `.bool(true)`.
    var isTrue: Bool {
        if case .bool(true) = self { return true }
        return false
    }

    case image(VImage)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    /// An enum argument, by its nick (`"centre"`, `"srgb"`, `"force"`).
    case enumeration(String)
    /// A flags argument, by the nicks of the flags it sets, joined by `:` (`"icc"`, `"icc:xmp"`).
    case flags(String)
    case doubles([Double])
    /// Bytes, copied into a libvips blob that the operation and its outputs own.
    case bytes([UInt8])
    /// Images, in order (`arrayjoin`'s `in`): a libvips image array that takes a reference to each.
    case images([VImage])
}

/// Calls any libvips operation by name, the way pyvips and the C++ binding do:
/// `vips_operation_new`, one `g_object_set_property` per argument, `vips_cache_operation_buildp`.
/// No variadic C function is involved.
public struct VipsOperation {
    /// The libvips nickname (`"thumbnail_buffer"`, `"embed"`, `"pngsave_buffer"`).
    public let name: String
    private var arguments: [(String, VipsArgument)] = []

    public init(_ name: String) { self.name = name }

    /// A palette save tried on a stripe first where it might outrun the job's deadline
    /// (``PaletteDeadline``); false for the trial itself.
    private var triesPalette = true

    /// The same operation, run without ``PaletteDeadline``'s trial.
    func withoutPaletteTrial() -> VipsOperation {
        var copy = self
        copy.triesPalette = false
        return copy
    }

    /// The same operation with `argument`'s value replaced (or added).
    func replacing(_ argument: String, _ value: VipsArgument) -> VipsOperation {
        var copy = self
        copy.arguments.removeAll { $0.0 == argument }
        copy.arguments.append((argument, value))
        return copy
    }

    /// Adds an argument; returns the operation for chaining.
    public func with(_ argument: String, _ value: VipsArgument) -> VipsOperation {
        var copy = self
        copy.arguments.append((argument, value))
        return copy
    }

    /// Runs the operation and returns its image output.
    public func image(output: String = "out") throws(ImagingError) -> VImage {
        try run { operation throws(ImagingError) in
            try Self.getImage(operation, output)
        }
    }

    /// Runs an operation that has no output (the `draw_*` family, which change their
    /// `image` argument in place: it must be a memory image nobody else reads).
    public func execute() throws(ImagingError) {
        try run { _ throws(ImagingError) in }
    }

    /// Runs the operation and returns a blob output's bytes (the savers' `buffer`).
    public func bytes(output: String = "buffer") throws(ImagingError) -> [UInt8] {
        try run { operation throws(ImagingError) in
            var value = GValue()
            g_value_init(&value, cvips_type_blob())
            defer { g_value_unset(&value) }
            g_object_get_property(Self.object(operation), output, &value)
            var length = 0
            guard let data = vips_value_get_blob(&value, &length) else {
                throw .operationFailed("\(name): no \(output) output")
            }
            return Array(UnsafeRawBufferPointer(start: data, count: length))
        }
    }

    /// Runs the operation and returns a number output (`avg`'s `out`, for example).
    public func number(output: String = "out") throws(ImagingError) -> Double {
        try run { operation throws(ImagingError) in
            var value = GValue()
            g_value_init(&value, cvips_type_double())
            defer { g_value_unset(&value) }
            g_object_get_property(Self.object(operation), output, &value)
            return g_value_get_double(&value)
        }
    }

    private func run<Result>(_ read: (UnsafeMutablePointer<CVips.VipsOperation>) throws(ImagingError) -> Result)
        throws(ImagingError) -> Result {
        // The job's deadline, between operations: a search's encodes, its trials' decodes and
        // scores, the sheet's bands (each operation is short; a running one libvips' kill stops).
        try JobDeadline.check()
        if triesPalette, name == "pngsave_buffer", arguments.contains(where: { $0.0 == "palette" && $0.1.isTrue }),
           case .image(let image)? = arguments.first(where: { $0.0 == "in" })?.1 {
            try PaletteDeadline.check(image, saving: self)
        }
        try VipsRuntime.start()
        guard let created = Self.new(name) else {
            throw .operationFailed(VipsRuntime.lastVipsError())
        }
        var operation: UnsafeMutablePointer<CVips.VipsOperation>? = created
        for (argument, value) in arguments {
            if let failure = Self.set(created, argument, value) {
                vips_object_unref_outputs(Self.vipsObject(created))
                g_object_unref(created)
                throw .operationFailed("\(name): \(failure)")
            }
        }
        guard vips_cache_operation_buildp(&operation) == 0, let built = operation else {
            vips_object_unref_outputs(Self.vipsObject(created))
            g_object_unref(created)
            throw .operationFailed(VipsRuntime.lastVipsError())
        }
        defer {
            vips_object_unref_outputs(Self.vipsObject(built))
            g_object_unref(built)
        }
        return try read(built)
    }

    private static func object(_ operation: UnsafeMutablePointer<CVips.VipsOperation>) -> UnsafeMutablePointer<GObject> {
        UnsafeMutableRawPointer(operation).assumingMemoryBound(to: GObject.self)
    }

    private static func vipsObject(_ operation: UnsafeMutablePointer<CVips.VipsOperation>) -> UnsafeMutablePointer<CVips.VipsObject> {
        UnsafeMutableRawPointer(operation).assumingMemoryBound(to: CVips.VipsObject.self)
    }

    private static func getImage(_ operation: UnsafeMutablePointer<CVips.VipsOperation>, _ output: String)
        throws(ImagingError) -> VImage {
        var value = GValue()
        g_value_init(&value, cvips_type_image())
        defer { g_value_unset(&value) }
        g_object_get_property(object(operation), output, &value)
        guard let raw = g_value_dup_object(&value) else {
            throw .operationFailed("no \(output) output")
        }
        return VImage(taking: raw.assumingMemoryBound(to: CVips.VipsImage.self))
    }

    /// Sets one argument; returns an error text on failure.
    private static func set(_ operation: UnsafeMutablePointer<CVips.VipsOperation>, _ argument: String,
                            _ argumentValue: VipsArgument) -> String? {
        var value = GValue()
        switch argumentValue {
        case .image(let image):
            g_value_init(&value, cvips_type_image())
            g_value_set_object(&value, image.pointer)
        case .int(let number):
            g_value_init(&value, cvips_type_int())
            g_value_set_int(&value, Int32(clamping: number))
        case .double(let number):
            g_value_init(&value, cvips_type_double())
            g_value_set_double(&value, number)
        case .bool(let flag):
            g_value_init(&value, cvips_type_boolean())
            g_value_set_boolean(&value, flag ? 1 : 0)
        case .string(let text):
            g_value_init(&value, cvips_type_string())
            g_value_set_string(&value, text)
        case .enumeration(let nick):
            guard let type = argumentType(operation, argument) else { return "no argument \(argument)" }
            let number = vips_enum_from_nick("creative-tool", type, nick)
            guard number >= 0 else { return "'\(nick)' is not a value of \(argument)" }
            g_value_init(&value, type)
            g_value_set_enum(&value, number)
        case .flags(let nicks):
            guard let type = argumentType(operation, argument) else { return "no argument \(argument)" }
            let number = vips_flags_from_nick("creative-tool", type, nicks)
            guard number >= 0 else { return "'\(nicks)' is not a value of \(argument)" }
            g_value_init(&value, type)
            g_value_set_flags(&value, UInt32(number))
        case .doubles(let numbers):
            g_value_init(&value, cvips_type_array_double())
            var copy = numbers
            vips_value_set_array_double(&value, &copy, Int32(numbers.count))
        case .images(let images):
            var pointers: [UnsafeMutablePointer<CVips.VipsImage>?] = images.map(\.pointer)
            guard let array = vips_array_image_new(&pointers, Int32(images.count)) else { return "no image array for \(argument)" }
            g_value_init(&value, cvips_type_array_image())
            g_value_set_boxed(&value, array)
            vips_area_unref(UnsafeMutableRawPointer(array).assumingMemoryBound(to: VipsArea.self))
        case .bytes(let data):
            let copied = data.withUnsafeBytes { buffer in
                buffer.baseAddress.flatMap { vips_blob_copy($0, buffer.count) }
            }
            guard let blob = copied else { return "empty buffer for \(argument)" }
            g_value_init(&value, cvips_type_blob())
            g_value_set_boxed(&value, blob)
            vips_area_unref(UnsafeMutableRawPointer(blob).assumingMemoryBound(to: VipsArea.self))
        }
        defer { g_value_unset(&value) }
        guard argumentType(operation, argument) != nil else { return "no argument \(argument)" }
        g_object_set_property(object(operation), argument, &value)
        return nil
    }

    private static func argumentType(_ operation: UnsafeMutablePointer<CVips.VipsOperation>,
                                     _ argument: String) -> GType? {
        var spec: UnsafeMutablePointer<GParamSpec>?
        var argumentClass: UnsafeMutablePointer<VipsArgumentClass>?
        var instance: UnsafeMutablePointer<VipsArgumentInstance>?
        guard vips_object_get_argument(vipsObject(operation), argument, &spec, &argumentClass, &instance) == 0,
              let spec else {
            vips_error_clear()
            return nil
        }
        return spec.pointee.value_type
    }
}

extension VipsOperation {
    /// The GType names of the operations a validation runs (the four buffer loaders, and `max`
    /// for the strict decode of the formats other than PNG): made from their type, so a run that
    /// needs no other operation does not have libvips initialise the class of every one.
    static let typeNames: [String: String] = [
        "pngload_buffer": "VipsForeignLoadPngBuffer", "jpegload_buffer": "VipsForeignLoadJpegBuffer",
        "gifload_buffer": "VipsForeignLoadNsgifBuffer", "webpload_buffer": "VipsForeignLoadWebpBuffer", "max": "VipsMax",
    ]

    /// A new operation of nickname `name`: from its type when ``typeNames`` knows it and this
    /// libvips agrees, else by `vips_operation_new`. Nil (libvips' error set) when there is none.
    static func new(_ name: String) -> UnsafeMutablePointer<CVips.VipsOperation>? {
        if let typeName = typeNames[name], let made = cvips_operation_new_of_type(typeName, name) { return made }
        return vips_operation_new(name)
    }

    /// Whether the libvips loaded has operation `name` with an argument `argument` (savers gain
    /// options from release to release: the tool degrades where one is missing).
    static func accepts(_ name: String, _ argument: String) -> Bool {
        guard (try? VipsRuntime.start()) != nil, let created = Self.new(name) else {
            vips_error_clear()
            return false
        }
        defer { g_object_unref(created) }
        var spec: UnsafeMutablePointer<GParamSpec>?
        var argumentClass: UnsafeMutablePointer<VipsArgumentClass>?
        var instance: UnsafeMutablePointer<VipsArgumentInstance>?
        let object = UnsafeMutableRawPointer(created).assumingMemoryBound(to: CVips.VipsObject.self)
        guard vips_object_get_argument(object, argument, &spec, &argumentClass, &instance) == 0 else {
            vips_error_clear()
            return false
        }
        return true
    }
}
