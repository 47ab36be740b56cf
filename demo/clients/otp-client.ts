import { callService, type CallOptions } from './call-service.ts';

/** An OTP send of Interface A (`POST {base_url}/api/send-otp`); the key is the client's. */
export interface SendOtpRequest {
  /** E.164; spaces, dashes and dots are tolerated. */
  number: string;
  message: string;
}

/** The service's answer: the job is queued. */
export interface SendOtpResult {
  jobId: string;
  accepted: boolean;
}

/** A typed client of Interface A, for the app's backend: it holds the OTP key. */
export interface OtpClient {
  /** @throws {@link ServiceError} */
  sendOtp(request: SendOtpRequest): Promise<SendOtpResult>;
}

/** Options of {@link createOtpClient}. */
export interface OtpClientOptions extends CallOptions {
  /** Interface A key, sent in the body as `apiKey`. Keep it on the server. */
  apiKey: string;
}

/**
 * Create a client of Interface A.
 *
 * @example
 * ```ts
 * const otp = createOtpClient({ baseUrl: process.env.OTP_BASE_URL!, apiKey: process.env.OTP_API_KEY! });
 * const { jobId } = await otp.sendOtp({ number: '+14155552671', message: 'Your code is 123456' });
 * ```
 */
export function createOtpClient(options: OtpClientOptions): OtpClient {
  return {
    async sendOtp(request) {
      const { json } = await callService(options, {
        path: '/api/send-otp',
        body: { apiKey: options.apiKey, number: request.number, message: request.message },
        idempotent: false,
      });
      return { jobId: String(json.jobId), accepted: json.accepted === true };
    },
  };
}
