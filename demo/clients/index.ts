export { callService, type CallOptions, type CallRequest, type CallResult } from './call-service.ts';
export {
  createNotificationClient,
  type NotificationClient,
  type NotificationClientOptions,
  type RegisterSubscriberResult,
  type SendNotificationRequest,
  type SendNotificationResult,
} from './notification-client.ts';
export { createOtpClient, type OtpClient, type OtpClientOptions, type SendOtpRequest, type SendOtpResult } from './otp-client.ts';
export { ServiceError, toServiceErrorCode, type ServiceErrorCode, type ServiceErrorDetails } from './service-error.ts';
