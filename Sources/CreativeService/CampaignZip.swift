import CreativeCore
import CreativeImaging
import CreativeOperations

/// The files of a campaign's zip answer as its creatives finish (`POST /v1/campaign` with
/// `Accept: application/zip`): each creative's folder as `process FILE FILE...` writes it (its
/// renders, preview sheet, page and `manifest.json`), then the contact sheet and `campaign.json`.
/// The files of the creatives done are held while the next one runs, so each is charged against
/// the process-wide budget as it is kept (the job's own reservation is the running creative's);
/// the answer's body takes the charge over (``hold(_:)``), or ``release()`` gives it back.
final class CampaignZip: @unchecked Sendable {
    /// What the kept files hold of the budget (``JobReservation``: an answer takes it over).
    private let kept: JobReservation
    private let lock = Lock()
    private(set) var files: [(name: String, bytes: [UInt8])] = []

    init(budget: MemoryBudget) {
        kept = JobReservation(budget: budget, bytes: 0)
    }

    /// Keeps `output`'s files under `folder/`, charged.
    func keep(_ output: ProcessOperation.Output, folder: String) {
        add(output.files.map { (folder + "/" + $0.name, $0.bytes) })
    }

    /// Keeps `entries` (named as they go into the archive), charged.
    func add(_ entries: [(name: String, bytes: [UInt8])]) {
        lock.locked { files += entries }
        kept.take(entries.reduce(0) { $0 + $1.bytes.count })
    }

    /// The answer's hold on the budget for a body of `size` bytes (the files and the archive's
    /// headers): what was taken as the files were kept, and the rest.
    func hold(_ size: Int) -> BudgetHold { kept.answerHold(size) }

    /// Gives back what is still taken (a campaign that failed: no answer holds the files).
    func release() { kept.releaseRest() }

    deinit { release() }
}
