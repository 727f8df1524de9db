import CreativeCore
import CreativeImaging
import CreativeOperations

/// The job of `process` on a creative already read (or the reason it could not be), shared by
/// `process` (which writes the files as a folder) and `worker` (which uploads them).
enum ProcessJob {
    /// What the job gave: the result, and its files with the marked manifest last.
    struct Output {
        let result: JobResult
        let manifestText: String
        /// The renders and the preview sheet, then `manifest.json` (the renders and the preview
        /// without bytes when the job wrote them out through a sink).
        let files: [(String, [UInt8])]
    }

    /// Validates, renders and draws the preview of the bytes `read` gave (a file that could not
    /// be read whole is a rejected creative, its report saying why). `name` is the report's file;
    /// `campaign` the campaign's other sizes; `weightBudget` decides every render's largest file; `sink`,
    /// when given, takes each render and the preview as soon as it is done
    /// (``CreativeJob/process(_:fileName:limits:format:campaign:weightBudget:writingTo:)``).
    /// - Throws: the imaging error of a valid creative that could not be rendered.
    static func run(_ read: Result<[UInt8], FileIO.ReadFailure>, name: String, limits: ValidationLimits,
                    format: FormatChoice, campaign: [PixelSize] = [],
                    weightBudget: RenderWeightBudget = RenderWeightBudget(),
                    writingTo sink: JobFileSink? = nil) throws(ImagingError) -> Output {
        let result: JobResult
        switch read {
        case .success(let bytes):
            result = try CreativeJob.process(bytes, fileName: name, limits: limits, format: format, campaign: campaign,
                                             weightBudget: weightBudget, writingTo: sink)
        case .failure(let failure):
            // Missing, too large or unreadable: the validation report says which.
            result = CreativeJob.rejected(ValidateOperation.report(CreativeInput(.failure(failure)), name: name, limits: limits), input: nil)
        }
        let manifestText = result.manifest.serialized() + "\n"
        return Output(result: result, manifestText: manifestText,
                      files: result.files.map { ($0.name, $0.bytes) } + [(JobResult.manifestName, Array(manifestText.utf8))])
    }

    /// A sink that writes each file into a folder being built (`prefix` is a creative's folder
    /// inside a campaign's, with its `/`, or empty).
    static func sink(into partial: DirectoryWriter.Partial, prefix: String = "") -> JobFileSink {
        { name, bytes throws(ImagingError) in
            do throws(CLIError) { try partial.put(prefix + name, bytes) } catch {
                if case .failed(_, let message) = error { throw .io(message) }
                throw .io("cannot write \(name)")
            }
        }
    }
}
